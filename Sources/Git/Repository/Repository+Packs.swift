import CGit2
import CairnSystem
import GitFormat

extension Repository {
    /// Runs `body` with the blobs and trees it writes gathered in memory and written at its
    /// end as one pack (see ``PackWriter``). A commit created inside writes them first, as
    /// libgit2 reads the commit's tree. When `body` throws, the gathered objects are dropped:
    /// nothing refers to them; ``writtenTrees`` is emptied with them, as some of its trees
    /// may not be on disk. Nested calls join the outer one.
    public func packingWrites<T>(_ body: () throws -> T) throws -> T {
        if pendingPack != nil || !packsWrites { return try body() }
        pendingPack = PackWriter()
        do {
            let result = try body()
            try writePendingObjects()
            pendingPack = nil
            return result
        } catch {
            pendingPack = nil
            writtenTrees = WrittenTrees()
            throw error
        }
    }

    /// Writes the objects gathered so far as a pack now, and lets libgit2 see it
    /// (`git_odb_refresh`), for code that reads what it wrote; then merges the small packs
    /// when there are many. Outside ``packingWrites(_:)`` it does nothing. When the pack
    /// cannot be written, ``writtenTrees`` is emptied: some of its trees were to be in it.
    public func writePendingObjects() throws(GitError) {
        guard var pack = pendingPack, !pack.isEmpty else { return }
        try leaveOutObjectsOnDisk(from: &pack)
        pendingPack = PackWriter()
        guard !pack.isEmpty else { return }
        do {
            try converting { () throws(GitFormatError) in try pack.write(into: gitdir) }
        } catch {
            writtenTrees = WrittenTrees()
            throw error
        }
        try refreshObjects()
        try combineSmallPacks()
        if estimatedLooseObjects() > Self.looseLimit { try packLooseObjects() }
    }

    /// Leaves out of `pack` the objects the store has already (a document set back to an
    /// earlier version, a merge both sides made alike), so they are not written again.
    ///
    /// The handle's object database answers first, from the packs it listed. A pack another
    /// git tool removed since (`git gc --prune=now` after a reset, `git repack -ad`) may still
    /// be open in it and answer for objects no longer on disk, which a commit would then name
    /// while missing. So what the handle finds is asked again of a database opened on the
    /// objects folder now (`git_odb_open`), which lists the packs there: paid only when some
    /// object was found, and an object it cannot confirm is written.
    private func leaveOutObjectsOnDisk(from pack: inout PackWriter) throws(GitError) {
        var found: Set<ObjectID> = []
        try withObjectDatabase { database in
            for id in pack.objectIDs {
                var raw = id.raw
                if git_odb_exists_ext(database, &raw, UInt32(GIT_ODB_LOOKUP_NO_REFRESH.rawValue)) == 1 { found.insert(id) }
            }
        }
        guard !found.isEmpty else { return }
        var current: OpaquePointer?
        guard git_odb_open(&current, gitdir + "objects") == 0 else {
            // Nothing is left out: writing an object the store has costs a few bytes.
            git_error_clear()
            return
        }
        defer { git_odb_free(current) }
        pack.removeAll { id in
            guard found.contains(id) else { return false }
            var raw = id.raw
            // Opened just now: a miss need not list the folder again.
            return git_odb_exists_ext(current, &raw, UInt32(GIT_ODB_LOOKUP_NO_REFRESH.rawValue)) == 1
        }
    }

    /// `git_odb_refresh`: rescans the object folders, for packs written outside libgit2.
    func refreshObjects() throws(GitError) {
        try withObjectDatabase { (database) throws(GitError) in try check(git_odb_refresh(database), "git_odb_refresh") }
    }

    /// The files of `objects/pack` (one `readdir`; none when it cannot be listed), its packs
    /// (each `pack-<checksum>` with an index), and those of them a merge of small packs may
    /// take: all but the ones git's own repack leaves alone. A `.keep` file marks a pack a
    /// user keeps, or one `git receive-pack` is still taking in; `.promisor`, a partial
    /// clone's; `.mtimes`, a cruft pack of unreachable objects waiting to expire.
    func packFolder() -> (files: Set<String>, packs: [String], mergeable: [String]) {
        Self.packFolder(gitdir: gitdir)
    }

    /// Whether the repository at `gitdir` has more packs to merge than ``packLimit``, from one
    /// `readdir`: for a caller that would otherwise open it (and check every pack index) only
    /// to find nothing to merge, as a sync does after each push by path.
    public static func hasSmallPacksToCombine(gitdir: String) -> Bool {
        packFolder(gitdir: gitdir.hasSuffix("/") ? gitdir : gitdir + "/").mergeable.count > packLimit
    }

    private static func packFolder(gitdir: String) -> (files: Set<String>, packs: [String], mergeable: [String]) {
        let files = Set(FolderListing.names(atPath: gitdir + "objects/pack") ?? [])
        let packs = files.filter { $0.hasPrefix("pack-") && $0.hasSuffix(".idx") }.map { String($0.dropLast(4)) }
        let mergeable = packs.filter { pack in ![".keep", ".promisor", ".mtimes"].contains { files.contains(pack + $0) } }
        return (files, packs, mergeable)
    }

    /// The packs `names` (`pack-<checksum>`; by default every pack with an index), with their
    /// sizes in bytes and in objects. A pack gone meanwhile is left out.
    func packs(named names: [String]? = nil) -> [(name: String, size: Int, objects: Int)] {
        let folder = gitdir + "objects/pack/"
        return (names ?? packFolder().packs).compactMap { base in
            guard case .success(let status) = Syscalls.status(of: folder + base + ".pack", followingLinks: true),
                let objects = PackIndex.objectCount(atPath: folder + base + ".idx")
            else { return nil }
            return (base, status.size, objects)
        }
    }

    /// Past this many packs, the small ones are merged (see ``combineSmallPacks()``).
    static let packLimit = 24

    /// Merges the smaller packs into one once there are more than ``packLimit``: every
    /// checkpoint, merge and fetch adds a pack, and each one more makes object lookups longer.
    ///
    /// Which packs: the fewest smallest ones that leave the packs in a geometric progression
    /// of object counts (each holding at least twice as many objects as all smaller ones
    /// together), as `git repack --geometric=2` chooses. An object is then packed again only
    /// each time the packs around it double, so the work stays proportional to what was
    /// written, and the large pack of a clone is taken only once the packs written since hold
    /// half as many objects. The merged pack is built by libgit2's pack builder
    /// (`git_packbuilder_write`), which stores similar objects (the versions of one folder's
    /// tree) as deltas of each other, so the store shrinks too. The old packs are removed
    /// once the new one is in place. Packs git's repack leaves alone (``packFolder()``) are
    /// neither merged nor counted. A sync runs it on a bare repository it pushed to by path,
    /// as `git receive-pack` runs `git gc --auto` there.
    public func combineSmallPacks() throws(GitError) {
        // The names alone decide whether to go on: a checkpoint pays one `readdir` here.
        let folder = packFolder()
        guard folder.mergeable.count > Self.packLimit else { return }
        let sorted = packs(named: folder.mergeable).sorted { $0.objects < $1.objects }
        // Packs another process merged meanwhile are gone from the list.
        guard sorted.count > Self.packLimit else { return }
        var split = 0
        for index in 1..<sorted.count where sorted[index - 1].objects * 2 > sorted[index].objects {
            split = index
        }
        var total = sorted[..<split].reduce(0) { $0 + $1.objects }
        while split < sorted.count, total * 2 > sorted[split].objects {
            total += sorted[split].objects
            split += 1
        }
        let small = Array(sorted[..<split])
        guard small.count >= 2 else { return }
        var builder: OpaquePointer?
        try check(git_packbuilder_new(&builder, handle), "git_packbuilder_new")
        defer { git_packbuilder_free(builder) }
        // Deltas searched for on every core, as `git repack` does.
        git_packbuilder_set_threads(builder, 0)
        for pack in small {
            let path = gitdir + "objects/pack/" + pack.name + ".idx"
            let ids = try converting { () throws(GitFormatError) in try PackIndex.objectIDs(atPath: path) }
            for id in ids {
                var raw = id.raw
                try check(git_packbuilder_insert(builder, &raw, nil), "git_packbuilder_insert")
            }
        }
        try check(git_packbuilder_write(builder, gitdir + "objects/pack", 0o444, nil, nil), "git_packbuilder_write")
        let kept = "pack-" + ObjectID(git_packbuilder_hash(builder)!.pointee).hex
        removeMergedPacks(small.map(\.name).filter { $0 != kept })
        try reopenObjects()
    }

    /// Removes packs whose objects the new pack holds, as git's repack removes redundant
    /// ones (`remove_redundant_pack`), from a listing taken now (the merge took a while).
    ///
    /// First a multi-pack index. git's repack removes one that names a removed pack; Cairn
    /// removes it whenever it removes packs, without reading which packs it names: git finds
    /// every object without one, while a stale one makes `git fsck` fail ("failed to load
    /// pack entry"), and git writes it again at its next `git multi-pack-index write` (or
    /// `git maintenance`'s incremental repack). While git is writing one (its `.lock` is
    /// there), or when it cannot be removed, no pack is removed this time: the new pack
    /// holding their objects too costs only room. Then each pack's index (readers find a pack
    /// by its index), the pack, and what git keeps beside it: a reverse index (`.rev`) and a
    /// bitmap (`.bitmap`), which git reports as garbage once their pack is gone.
    private func removeMergedPacks(_ packs: [String]) {
        let folder = gitdir + "objects/pack/"
        let layers = folder + "multi-pack-index.d/"
        guard !packs.isEmpty, let files = FolderListing.names(atPath: folder) else { return }
        let layerFiles = files.contains("multi-pack-index.d") ? FolderListing.names(atPath: layers) : []
        guard let layerFiles, !(files + layerFiles).contains(where: { $0.hasSuffix(".lock") && $0.hasPrefix("multi-pack-index") }) else {
            return
        }
        let indexes =
            files.filter { $0.hasPrefix("multi-pack-index") && $0 != "multi-pack-index.d" }.map { folder + $0 }
            + layerFiles.map { layers + $0 }
        for path in indexes {
            if case .failure(let error) = Syscalls.unlink(path), error != .noSuchFile { return }
        }
        if files.contains("multi-pack-index.d") { _ = Syscalls.removeFolder(layers) }
        for pack in packs {
            for suffix in [".idx", ".pack", ".rev", ".bitmap"] where files.contains(pack + suffix) {
                _ = Syscalls.unlink(folder + pack + suffix)
            }
        }
    }

    /// Gives the repository a new object database (`git_odb_open`, `git_repository_set_odb`).
    /// libgit2 never forgets a pack it loaded, even once its files are removed: a process
    /// that checkpoints for hours would keep every pack it ever wrote mapped, and look
    /// through all of them for each new object. After packs are combined, the new database
    /// sees only the packs on disk.
    func reopenObjects() throws(GitError) {
        var database: OpaquePointer?
        try check(git_odb_open(&database, gitdir + "objects"), "git_odb_open")
        defer { git_odb_free(database) }
        try check(git_repository_set_odb(handle, database), "git_repository_set_odb")
    }

    /// Past about this many loose objects, they are packed (``packLooseObjects()``). A store's
    /// blobs and trees go to packs already; what is left loose is mostly commits, one a
    /// checkpoint, and whatever plain git wrote in the store.
    static let looseLimit = 1_024

    /// The number of loose objects, estimated as `git gc --auto` does: the files of the folder
    /// `objects/17` times 256 (object ids are spread evenly over the 256 folders). One
    /// `readdir` of a small folder.
    func estimatedLooseObjects() -> Int {
        looseObjectFiles(inFolder: "17").count * 256
    }

    /// The loose object files of `objects/<folder>`, as ids.
    private func looseObjectFiles(inFolder folder: String) -> [ObjectID] {
        (FolderListing.names(atPath: gitdir + "objects/" + folder) ?? []).compactMap { name in
            name.utf8.count == 38 ? ObjectID(hex: folder + name) : nil
        }
    }

    /// Packs every loose object into one pack (libgit2's pack builder, `git_packbuilder_write`)
    /// and removes the loose files once the pack is in place — what `git gc` does for loose
    /// objects, which libgit2 never does by itself. A crash in between leaves objects in both
    /// places, which is harmless.
    public func packLooseObjects() throws(GitError) {
        var loose: [(folder: String, id: ObjectID)] = []
        for byte in 0..<256 {
            let folder = [UInt8(byte)].hexDigits
            loose += looseObjectFiles(inFolder: folder).map { (folder, $0) }
        }
        guard !loose.isEmpty else { return }
        var builder: OpaquePointer?
        try check(git_packbuilder_new(&builder, handle), "git_packbuilder_new")
        defer { git_packbuilder_free(builder) }
        // Deltas searched for on every core, as `git repack` does.
        git_packbuilder_set_threads(builder, 0)
        for object in loose {
            var raw = object.id.raw
            try check(git_packbuilder_insert(builder, &raw, nil), "git_packbuilder_insert")
        }
        try check(git_packbuilder_write(builder, gitdir + "objects/pack", 0o444, nil, nil), "git_packbuilder_write")
        try refreshObjects()
        for object in loose {
            _ = Syscalls.unlink(gitdir + "objects/" + object.folder + "/" + String(object.id.hex.dropFirst(2)))
        }
        for folder in Set(loose.map(\.folder)) { _ = Syscalls.removeFolder(gitdir + "objects/" + folder) }
        try reopenObjects()
        try combineSmallPacks()
    }
}
