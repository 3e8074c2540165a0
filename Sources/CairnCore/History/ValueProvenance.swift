import CairnMerge

/// Where one value of a document comes from, as `cairn blame` tells it: the checkpoint that
/// last set it (with the device that made it, when the checkpoint names one), and, when a
/// merge kept it under a policy, that merge and its decision.
public struct ValueProvenance: Sendable {
    /// The value's JSON pointer in the document.
    public var pointer: String
    public var value: JSONValue
    /// The newest checkpoint whose version of the document holds this value where none of its
    /// parents' versions does: the one that set it (a merge, when the merge made the value,
    /// as a counter's sum or a derived field computed again).
    public var checkpoint: Checkpoint
    /// The newest merge (or import) between the document as it is and ``checkpoint`` that
    /// decided the value or an object holding it under a policy, with its record; nil when
    /// no merge had to decide.
    public var decision: Decision?

    /// A merge's decision about the value, or about an object that holds it.
    public struct Decision: Sendable {
        public var merge: Checkpoint
        public var record: ConflictRecord
    }
}
