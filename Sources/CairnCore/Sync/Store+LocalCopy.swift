import CairnSystem
import Git
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Store {
    /// For a restore from a repository on this machine (a path or `file://` remote): the
    /// remote's object files are copied into the new store, as `git clone` of a local path
    /// does, and its branch becomes `refs/remotes/origin/main`. A fetch through libgit2's
    /// local transport would build a new pack and search every object for deltas again
    /// (git's own transport reuses the pack's), most of a restore's time.
    ///
    /// Returns false, having set no reference, when the remote is not a plain repository
    /// with the branch (objects borrowed through `alternates` included) or a file could not
    /// be copied: the fetch then runs, and says what is wrong. What was copied are whole
    /// object files (each copied under a temporary name, then renamed), not hashed at the copy,
    /// as with `git clone` of a local path: each object is hashed against its id when it is
    /// read, as any object of the store is.
    func copyObjects(fromLocal remote: RemoteURL) -> Bool {
        guard remote.transport == .path else { return false }
        let started = Date()
        let bare = FileSystem.kind(remote.url + "/objects") == .folder && FileSystem.kind(remote.url + "/HEAD") == .file
        let source = remote.url + (bare ? "/objects" : "/.git/objects")
        guard FileSystem.kind(source + "/info/alternates") == nil,
            let tip = try? Repository(openingAt: remote.url).reference("refs/heads/\(Self.branch)")
        else {
            return false
        }
        let target = folder + "/.git/objects"
        var (files, bytes) = (0, 0)
        do {
            // Packs with their indexes (an index last, so a pack is never seen without its
            // data), then loose objects. Another device merging the remote's packs meanwhile
            // (a sync that pushed by path does) may remove some after the listing, and its new
            // pack may be missing from it: the folder must list the same at the end, and a
            // pack without its index sends the restore to a fetch.
            func packFiles() -> Set<String> {
                Set(
                    FileSystem.names(in: source + "/pack").filter {
                        $0.hasPrefix("pack-") && ($0.hasSuffix(".pack") || $0.hasSuffix(".idx"))
                    })
            }
            let packs = packFiles()
            for base in Set(packs.map { $0.hasSuffix(".idx") ? String($0.dropLast(4)) : String($0.dropLast(5)) }) {
                let (name, index) = (base + ".pack", base + ".idx")
                guard FileSystem.kind(source + "/pack/" + name) == .file, FileSystem.kind(source + "/pack/" + index) == .file else {
                    throw CairnError(.io, "\(base) of \(remote) is missing its pack or its index")
                }
                for file in [name, index] {
                    bytes += try copy(source + "/pack/" + file, to: target + "/pack/" + file)
                    files += 1
                }
            }
            for prefix in FileSystem.names(in: source) where prefix.count == 2 && prefix.allSatisfy(\.isHexDigit) {
                try FileSystem.makeFolders(target + "/" + prefix)
                for name in FileSystem.names(in: source + "/" + prefix) where name.allSatisfy(\.isHexDigit) {
                    bytes += try copy(source + "/" + prefix + "/" + name, to: target + "/" + prefix + "/" + name)
                    files += 1
                }
            }
            guard packFiles() == packs else { throw CairnError(.io, "the packs of \(remote) changed while they were copied") }
            // The branch's commit must have come with the files (a remote whose `.git` is a
            // file, or a repack between the listing and the copy, may leave it out).
            _ = try repository.commit(tip)
            try repository.setReference(Self.remoteBranch, to: tip, expecting: nil, message: "restore: copied from \(remote)")
        } catch {
            logger.notice("copy of a local remote's objects failed: fetching instead", metadata: ["error": "\(error)"])
            return false
        }
        logger.debug(
            "fetch",
            metadata: [
                "copied": "\(files) files", "bytes": "\(bytes)",
                "ms": "\(Int(Date().timeIntervalSince(started) * 1000))",
            ])
        return true
    }

    /// Copies the file `source` to `target` (unless an object file is there already, which
    /// holds the same object), through a temporary name; its size.
    private func copy(_ source: String, to target: String) throws -> Int {
        if FileSystem.kind(target) != nil { return 0 }
        let temporary = target + ".copying"
        _ = try? FileSystem.removeFile(temporary)
        try FileManager.default.copyItem(atPath: source, toPath: temporary)
        try FileSystem.move(temporary, to: target)
        return (try? FileManager.default.attributesOfItem(atPath: target)[.size] as? Int) ?? 0
    }
}
