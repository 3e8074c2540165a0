import CairnTestSupport

/// A site that could not be built or copied: the harness cannot go on.
struct FaultSiteError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
