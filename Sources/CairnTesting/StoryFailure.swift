import CairnCore
import CairnMerge

/// Why a story, a scenario or a golden case failed: where (the file, the JSON pointer in it,
/// the step and what it was), what was wrong, and — for a value that differs from the one
/// expected — the differences, one per JSON pointer.
public struct StoryFailure: Error, Sendable, CustomStringConvertible {
    /// The scenario file or golden case folder, when the story came from one.
    public var file: String?
    /// Where in the file (`/steps/3/value`), when known.
    public var pointer: String?
    /// The step's index (counted from 0, as `/steps/N` counts), when a step failed.
    public var step: Int?
    /// What the step was (`sync laptop`, `expect users/u1/books/b1 on laptop equals`).
    public var stepDescription: String?
    /// What was wrong, in one line.
    public var message: String
    /// Where the value found differs from the value expected.
    public var differences: [JSONDifference]
    /// The store's error, when a step failed because the store refused it (its code and
    /// cause say why: ``SchemaRefusal``, ``AppendOnlyRefusal``, ``PushRefusal``, …).
    public var storeError: CairnError?

    public init(
        _ message: String, file: String? = nil, pointer: String? = nil, step: Int? = nil,
        stepDescription: String? = nil, differences: [JSONDifference] = [], storeError: CairnError? = nil
    ) {
        self.message = message
        self.file = file
        self.pointer = pointer
        self.step = step
        self.stepDescription = stepDescription
        self.differences = differences
        self.storeError = storeError
    }

    /// One line: `FILE: /pointer: step N (what): message`.
    public var summary: String {
        var line = ""
        if let file { line += file + ": " }
        if let pointer { line += (pointer.isEmpty ? "/" : pointer) + ": " }
        if let step {
            line += "step \(step)" + (stepDescription.map { " (\($0))" } ?? "") + ": "
        } else if let stepDescription {
            line += stepDescription + ": "
        }
        return line + message
    }

    /// The summary, then one line per difference, indented.
    public var description: String {
        ([summary] + differences.map { "  " + $0.description }).joined(separator: "\n")
    }
}
