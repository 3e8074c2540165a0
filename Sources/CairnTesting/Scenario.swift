import CairnCore
import CairnMerge

/// A merge story as a scenario file states it: the schema set, the devices of one user, and
/// the steps and expectations in order (the format is in CairnMerge.docc, MergeScenarioTests).
public struct Scenario: Sendable {
    /// The scenario's `name`, or the file's name without `.json` (with `[N]` after it for the
    /// N-th scenario of a file that holds several).
    public var name: String
    /// The file it was read from.
    public var file: String
    /// The schema set: a name, or a folder path relative to the file (see ``SchemaSetResolver``).
    public var schema: String
    /// The user whose store the devices hold (`u1` unless the file says).
    public var user: String
    public var devices: [String]
    public var steps: [ScenarioStep]
    /// Where the scenario is in its file: empty for a file of one, `/N` in an array.
    public var pointer: String

    public init(
        name: String, file: String, schema: String, user: String = "u1", devices: [String], steps: [ScenarioStep],
        pointer: String = ""
    ) {
        self.pointer = pointer
        self.name = name
        self.file = file
        self.schema = schema
        self.user = user
        self.devices = devices
        self.steps = steps
    }

    /// Tells the story with the set `resolve` finds, in a temporary folder removed afterwards.
    /// Throws the first failure, naming the file and the pointer of the step (`/steps/3`).
    public func run(resolve: SchemaSetResolver = .besideFile) throws(StoryFailure) {
        let set: SchemaSetFiles
        do {
            set = try resolve.set(schema, file)
        } catch {
            throw StoryFailure("\(error)", file: file, pointer: pointer + "/schema")
        }
        let story: Story
        do {
            story = try Story(schemaSet: set, devices: devices, user: user)
        } catch var failure {
            // The set was found, and the store cannot be made with it.
            failure.file = file
            failure.pointer = pointer + "/schema"
            throw failure
        }
        for (index, step) in steps.enumerated() {
            do {
                switch step {
                case .step(let step): try story.run(step)
                case .expect(let expectation): try story.expect(expectation)
                }
            } catch var failure {
                failure.file = file
                failure.pointer = pointer + "/steps/\(index)" + (failure.pointer ?? Self.place(of: failure, in: step))
                throw failure
            }
        }
        // Every story ends with sound histories, whatever its steps said.
        do {
            try story.expect(.verified)
        } catch var failure {
            failure.file = file
            failure.pointer = pointer + "/steps"
            throw failure
        }
    }

    /// Where in its step a refusal of the store points: a document its schema refuses at
    /// the step's `value` (for `put`, at the place in it the schema names); anything else at
    /// the step.
    static func place(of failure: StoryFailure, in step: ScenarioStep) -> String {
        guard let refusal = failure.storeError?.cause as? SchemaRefusal else { return "" }
        switch step {
        case .step(.put): return "/value" + (refusal.errors.first?.pointer ?? "")
        case .step(.patch): return "/value"
        default: return ""
        }
    }
}
