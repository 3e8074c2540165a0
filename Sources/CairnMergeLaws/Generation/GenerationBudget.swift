import CairnMerge

/// How much one drawing of a value may make: a schema's minimums can multiply (a thousand
/// items of a thousand items each) and its `$ref`s can hold themselves, so a drawing counts
/// the values and characters it makes and how deep it is, and stops with a
/// ``GenerationError`` past ``limit`` or ``GenerationContext/maxDepth`` — never a hang or a
/// crash.
final class GenerationBudget {
    /// Values and characters one document may hold: far more than an app's document does,
    /// far less than what would take long to draw and check.
    static let limit = 200_000
    /// The largest `minItems`, `minLength` or `minProperties` drawn.
    static let largestMinimum = 10_000

    private(set) var spent = 0
    var depth = 0

    /// Counts `amount` (values or characters); false once past the limit.
    func spend(_ amount: Int) -> Bool {
        spent += Swift.min(amount, Self.limit + 1)
        return spent <= Self.limit
    }
}
