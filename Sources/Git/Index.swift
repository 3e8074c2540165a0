#if canImport(Glibc)
import Glibc
#endif

/// The repository's index (`.git/index`), kept by Cairn as a git *split index*.
///
/// libgit2 1.5 reads and writes the whole index on every change, so a checkpoint of ten
/// documents in a store of 100,000 would rewrite a 13 MB file. Git's split index keeps the
/// bulk in `.git/sharedindex.<id>`, written rarely, and records in `.git/index` only what
/// changed since: the shared entries replaced or deleted (two EWAH bitmaps) and the entries
/// added. Cairn reads the shared part by binary search over a mapped file and writes only the
/// small part, so staging costs follow the number of changes. Plain git reads and rewrites
/// this format as usual (`git status`, `git add`); whatever git leaves — split or whole,
/// version 2, 3 or 4 — is read, and turned back into a split index on the next write.
///
/// libgit2 cannot read a split index: once Cairn owns a repository's index, no libgit2 call
/// that uses the index (status, checkout, `git_index_*`) may run on it.
public final class Index {
    private let gitdir: String
    private var base: Base
    private var replaced: [Int: IndexEntry] = [:]
    private var deleted: Set<Int> = []
    private var added: [[UInt8]: IndexEntry] = [:]
    /// A whole (not split) index was read: the next write makes a new shared part.
    private var mustReshare: Bool

    private enum Base {
        case shared(SharedIndex)
        case loaded([IndexEntry])
    }

    private init(gitdir: String, base: Base, mustReshare: Bool) {
        self.gitdir = gitdir
        self.base = base
        self.mustReshare = mustReshare
    }

    /// Reads the index of the repository whose `.git` folder is `gitdir`; an index that does
    /// not exist yet is empty.
    public static func open(gitdir: String) throws(GitError) -> Index {
        let gitdir = gitdir.hasSuffix("/") ? gitdir : gitdir + "/"
        let path = gitdir + "index"
        guard let file = try MappedFile(path: path) else {
            return Index(gitdir: gitdir, base: .loaded([]), mustReshare: true)
        }
        let parsed = try IndexFile.parse(file.bytes, path: path)
        guard let link = parsed.link else {
            return Index(gitdir: gitdir, base: .loaded(stageZero(parsed.entries)), mustReshare: true)
        }
        guard let shared = try SharedIndex(gitdir: gitdir, id: link.sharedID) else {
            // A shared part Cairn cannot search (version 4): read it whole and reshare.
            let sharedPath = gitdir + "sharedindex." + link.sharedID.hex
            guard let sharedFile = try MappedFile(path: sharedPath) else {
                throw failure(.notFound, "the index links to \(sharedPath), which is missing", "cairn_index_read")
            }
            let whole = try IndexFile.parse(sharedFile.bytes, path: sharedPath)
            let index = Index(gitdir: gitdir, base: .loaded(stageZero(whole.entries)), mustReshare: true)
            try index.apply(link, entries: parsed.entries, baseCount: whole.entries.count)
            try index.flatten()
            return index
        }
        let index = Index(gitdir: gitdir, base: .shared(shared), mustReshare: false)
        try index.apply(link, entries: parsed.entries, baseCount: shared.count)
        return index
    }

    /// The entry staged for `path`, if any.
    public func entry(for path: String) throws(GitError) -> IndexEntry? {
        let bytes = Array(path.utf8)
        guard let position = try position(of: bytes) else { return added[bytes] }
        if deleted.contains(position) { return nil }
        if let entry = replaced[position] { return entry }
        return try baseEntry(at: position)
    }

    /// Stages `entry` for its path, replacing what was staged there.
    public func stage(_ entry: IndexEntry) throws(GitError) {
        if let position = try position(of: entry.pathBytes) {
            replaced[position] = entry
            deleted.remove(position)
        } else {
            added[entry.pathBytes] = entry
        }
    }

    /// Unstages `path`.
    public func remove(path: String) throws(GitError) {
        let bytes = Array(path.utf8)
        if let position = try position(of: bytes) {
            deleted.insert(position)
            replaced[position] = nil
        } else {
            added[bytes] = nil
        }
    }

    /// Every staged entry, sorted by path. Reads the whole shared part: for scans.
    public func allEntries() throws(GitError) -> [IndexEntry] {
        var entries: [IndexEntry] = []
        let count = baseCount
        entries.reserveCapacity(count + added.count)
        for position in 0..<count where !deleted.contains(position) {
            if let entry = replaced[position] {
                entries.append(entry)
            } else {
                entries.append(try baseEntry(at: position))
            }
        }
        entries += added.values
        entries.sort { $0.pathBytes.lexicographicallyPrecedes($1.pathBytes) }
        return entries
    }

    /// Writes the index: usually just the small `.git/index` of changes; when those have
    /// grown past a share of the whole (or a whole index was read), a new shared part too.
    public func write() throws(GitError) {
        let changes = replaced.count + deleted.count + added.count
        if case .shared(let shared) = base, !mustReshare, changes <= Self.reshareThreshold(shared.count) {
            let replacements = replaced.keys.sorted().map { position -> IndexEntry in
                var entry = replaced[position]!
                entry.pathBytes = []
                return entry
            }
            let additions = added.values.sorted { $0.pathBytes.lexicographicallyPrecedes($1.pathBytes) }
            let link = IndexFile.Link(sharedID: shared.id, deleted: deleted.sorted(), replaced: replaced.keys.sorted())
            try FileWriter.replace(gitdir + "index", with: IndexFile.serialize(replacements + additions, link: link).bytes)
            return
        }
        let entries = try allEntries()
        let (bytes, offsets) = IndexFile.serialize(entries, link: nil)
        let id = ObjectID(rawBytes: Array(bytes.suffix(IndexFile.trailerSize)))
        let sharedPath = gitdir + "sharedindex." + id.hex
        if access(sharedPath, F_OK) != 0 {
            try FileWriter.replace(sharedPath, with: bytes)
        }
        try SharedIndex.writeOffsets(offsets, to: SharedIndex.offsetsPath(gitdir: gitdir, id: id))
        let link = IndexFile.Link(sharedID: id, deleted: [], replaced: [])
        try FileWriter.replace(gitdir + "index", with: IndexFile.serialize([], link: link).bytes)
        let previous: ObjectID? = if case .shared(let old) = base { old.id } else { nil }
        removeSharedParts(except: [id] + (previous.map { [$0] } ?? []))
        guard let shared = try SharedIndex(gitdir: gitdir, id: id) else { return }
        base = .shared(shared)
        replaced = [:]
        deleted = []
        added = [:]
        mustReshare = false
    }

    /// How many changed entries the small part may hold before a new shared part is cheaper:
    /// half the store for small ones, at most 2,000 entries (about 200 KB) for large ones.
    static func reshareThreshold(_ sharedCount: Int) -> Int {
        min(2_000, max(64, sharedCount / 2))
    }

    // MARK: - Internals

    private var baseCount: Int {
        switch base {
        case .shared(let shared): shared.count
        case .loaded(let entries): entries.count
        }
    }

    private func baseEntry(at position: Int) throws(GitError) -> IndexEntry {
        switch base {
        case .shared(let shared): try shared.entry(at: position)
        case .loaded(let entries): entries[position]
        }
    }

    private func position(of path: [UInt8]) throws(GitError) -> Int? {
        switch base {
        case .shared(let shared):
            return try shared.position(of: path)
        case .loaded(let entries):
            var low = 0
            var high = entries.count - 1
            while low <= high {
                let middle = (low + high) / 2
                let candidate = entries[middle].pathBytes
                if candidate == path { return middle }
                if candidate.lexicographicallyPrecedes(path) { low = middle + 1 } else { high = middle - 1 }
            }
            return nil
        }
    }

    /// Takes in the changes a split `.git/index` records against its shared part.
    private func apply(_ link: IndexFile.Link, entries: [IndexEntry], baseCount: Int) throws(GitError) {
        guard link.replaced.count <= entries.count,
              link.replaced.allSatisfy({ $0 < baseCount }), link.deleted.allSatisfy({ $0 < baseCount }) else {
            throw failure(.generic, "\(gitdir)index has a link extension that does not fit its shared index", "cairn_index_read")
        }
        for (position, entry) in zip(link.replaced, entries) {
            var entry = entry
            entry.pathBytes = try baseEntry(at: position).pathBytes
            replaced[position] = entry
        }
        deleted = Set(link.deleted)
        for entry in entries.dropFirst(link.replaced.count) where entry.stage == 0 {
            added[entry.pathBytes] = entry
        }
    }

    /// Folds the changes into a loaded base.
    private func flatten() throws(GitError) {
        base = .loaded(try allEntries())
        replaced = [:]
        deleted = []
        added = [:]
    }

    private static func stageZero(_ entries: [IndexEntry]) -> [IndexEntry] {
        entries.filter { $0.stage == 0 }.sorted { $0.pathBytes.lexicographicallyPrecedes($1.pathBytes) }
    }

    /// Removes shared parts (and their offset tables) no longer linked.
    private func removeSharedParts(except keep: [ObjectID]) {
        let kept = Set(keep.map(\.hex))
        guard let folder = opendir(gitdir) else { return }
        defer { closedir(folder) }
        var stale: [String] = []
        while let item = readdir(folder) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix("sharedindex."), !kept.contains(String(name.dropFirst(12))) else { continue }
            stale.append(String(name.dropFirst(12)))
        }
        for hex in stale {
            unlink(gitdir + "sharedindex." + hex)
            unlink(gitdir + "cairn/sharedindex." + hex + ".offsets")
        }
    }
}

extension IndexEntry {
    /// An entry for the file at `absolutePath`, staged at `path` with blob `id`, carrying the
    /// file's stat data (`lstat`) so git sees it unchanged.
    public static func forFile(atPath absolutePath: String, path: String, id: ObjectID) throws(GitError) -> IndexEntry {
        var info = stat()
        guard lstat(absolutePath, &info) == 0 else { throw posixFailure("lstat", absolutePath) }
        var entry = IndexEntry(path: path, id: id)
        entry.ctimeSeconds = UInt32(truncatingIfNeeded: info.st_ctim.tv_sec)
        entry.ctimeNanoseconds = UInt32(truncatingIfNeeded: info.st_ctim.tv_nsec)
        entry.mtimeSeconds = UInt32(truncatingIfNeeded: info.st_mtim.tv_sec)
        entry.mtimeNanoseconds = UInt32(truncatingIfNeeded: info.st_mtim.tv_nsec)
        entry.device = UInt32(truncatingIfNeeded: info.st_dev)
        entry.inode = UInt32(truncatingIfNeeded: info.st_ino)
        entry.mode = info.st_mode & 0o111 != 0 ? 0o100755 : 0o100644
        entry.uid = info.st_uid
        entry.gid = info.st_gid
        entry.size = UInt32(truncatingIfNeeded: info.st_size)
        return entry
    }
}
