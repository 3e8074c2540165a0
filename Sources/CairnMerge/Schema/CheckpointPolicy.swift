/// When the documents of a kind are checkpointed after a write, as the schema declares it
/// (`"x-cairn": {"checkpoint": "immediate" | {"throttle": S} | {"debounce": S}}`).
public enum CheckpointPolicy: Hashable, Sendable, CustomStringConvertible {
    /// At once, before the write returns (a submitted exam).
    case immediate
    /// At most one checkpoint every `S` seconds while writes go on: the first write after a
    /// quiet period is checkpointed at once, later ones together `S` seconds after the last
    /// checkpoint (an exam in progress).
    case throttle(Double)
    /// `S` seconds after the last of a burst of writes (a book's sections marked one by one).
    case debounce(Double)

    /// What applies when a schema declares nothing: the writes of a few seconds together.
    public static let standard = CheckpointPolicy.debounce(10)

    /// Reads the annotation; nil when it is not one of the three forms.
    public init?(annotation: JSONValue) {
        switch annotation {
        case .string("immediate"):
            self = .immediate
        case .object(let fields) where fields.count == 1:
            guard let (name, value) = fields.first, let seconds = value.number, seconds >= 0, seconds <= 86_400 else { return nil }
            switch name {
            case "throttle": self = .throttle(seconds)
            case "debounce": self = .debounce(seconds)
            default: return nil
            }
        default:
            return nil
        }
    }

    public var description: String {
        switch self {
        case .immediate: "immediate"
        case .throttle(let seconds): "throttle \(seconds) s"
        case .debounce(let seconds): "debounce \(seconds) s"
        }
    }
}
