import CairnCore
import CairnMerge
import Git
import GitFormat

/// What a user's bare repository does once a push is in (`cairn hook post-receive`): the
/// assets the new tip of `main` no longer points to are removed from the repository's asset
/// storage (``AssetSweep``: `cairn.lfsStorage`, else `<repository>/lfs/objects`), so that a
/// recording deleted on a device is deleted on the server too. History keeps the pointers.
public struct PostReceiveHook {
    let repository: Repository

    /// Opens the repository git runs the hook in (`GIT_DIR`, else the current folder).
    public init() throws(CairnError) {
        do {
            repository = try Repository.openFromEnvironment()
        } catch {
            throw CairnError(
                .notFound, "the post-receive hook runs inside a user's repository on the server (\(error.message))",
                remedy: .createRemoteRepository, cause: error)
        }
    }

    /// Handles the updates git gives the hook on stdin (`<old> <new> <ref>` per line), then
    /// every push the pre-receive hook marked that `main` has reached (``SweepMarks``: this
    /// one, and any other that landed meanwhile), removing each mark once swept; returns the
    /// assets removed from the storage. Sweeping an update twice removes nothing the second
    /// time.
    public func run(_ input: String) throws(CairnError) -> [String] {
        guard (try? repository.config(Server.contentConfigKey)).flatMap({ $0 }) == nil else { return [] }
        var updates: [(old: ObjectID?, new: ObjectID)] = []
        for line in input.split(separator: "\n") {
            let fields = line.split(separator: " ")
            let zero = String(repeating: "0", count: 40)
            guard fields.count == 3, fields[2] == "refs/heads/" + Store.branch, fields[1] != zero,
                let new = ObjectID(hex: String(fields[1]))
            else { continue }
            updates.append((fields[0] == zero ? nil : ObjectID(hex: String(fields[0])), new))
        }
        var removed: [String] = []
        do {
            for (old, new) in updates {
                removed += try AssetSweep.sweepAfterPush(repository, from: old, to: new)
            }
            for mark in try SweepMarks(repository: repository).landed() {
                removed += try AssetSweep.sweepAfterPush(repository, from: mark.old, to: mark.new)
                _ = try FileSystem.removeFile(mark.file)
            }
        } catch let error as CairnError {
            throw error
        } catch {
            throw CairnError(.io, "cannot remove the assets the push left behind: \(error)")
        }
        return removed
    }
}
