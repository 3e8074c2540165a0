/// One entry of a scenario's `steps`: a step a device takes, or an expectation checked.
public enum ScenarioStep: Sendable, CustomStringConvertible {
    case step(Step)
    case expect(Expectation)

    public var description: String {
        switch self {
        case .step(let step): step.description
        case .expect(let expectation): expectation.description
        }
    }
}
