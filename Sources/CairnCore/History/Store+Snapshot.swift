import CairnMerge
import Git

extension Store {
    /// The documents the checkpoint `revision` names holds (the user's own document and
    /// everything below it), sorted by path; [] for a store with no checkpoint yet.
    public func documentPaths(at revision: String = "HEAD") throws(CairnError) -> [DocumentPath] {
        try translatingErrors("cannot list the documents at \(revision)") { () throws -> [DocumentPath] in
            if revision == "HEAD", try repository.headCommit() == nil { return [] }
            let tree = try resolve(revision).treeID
            return try repository.differences(among: [tree, nil])
                .compactMap { DocumentPath(fileName: $0.path) }
                .filter { $0.segments.count >= 2 && $0.segments[0] == "users" && $0.segments[1] == uid }
                .sorted()
        }
    }
}
