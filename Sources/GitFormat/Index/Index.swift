import CairnSystem

/// The repository's index (`.git/index`), read and written by Cairn itself so staging costs
/// follow the number of changed files.
///
/// What git or any other tool left is read as git reads it: versions 2 to 4, whole or split
/// (a `.git/index` that records changes against `.git/sharedindex.<id>`), with every stage
/// of a conflicted path. Cairn stages and unstages whole paths (staging a path resolves its
/// conflict, as `git add` does) and writes the result back:
///
/// - **whole**, in version 2 (3 when an entry needs extended flags), by default — the form
///   that git, every libgit2, JGit and dulwich read and write. Unchanged entries are copied
///   byte for byte from the file read, so a checkpoint costs a copy and a checksum of the
///   index, not a parse and a serialization;
/// - **split**, as git's `core.splitIndex` does, when the store's `core.splitIndex` is true,
///   or unset and the index holds at least ``splitThreshold`` entries. Then only the small
///   `.git/index` is written, until its changes grow past a share of the whole. Set
///   `core.splitIndex` to false to keep a large store's index whole for tools that do not
///   read split indexes (libgit2, JGit, dulwich).
///
/// Extensions git may have added (the cached trees, the untracked cache, resolve-undo) are
/// optional and are not written back: git rebuilds them when it needs them. A required
/// extension Cairn does not know (a sparse index) is an error, as in git.
///
/// An `Index` stages and unstages in memory; ``write()`` saves it once.
package final class Index {
    private let gitdir: String
    /// `core.splitIndex` of the repository: nil when it is not set.
    private let splitSetting: Bool?
    /// The entries as read: a mapped file (the whole index, or the shared part of a split
    /// one), or, for version 4, parsed.
    private var base: Base
    /// The shared part the index read links to, when it was split (the base is that part).
    private var sharedID: ObjectID?
    /// Every path whose entries differ from the base, with all of its entries now, sorted by
    /// stage (none: the path is no longer staged).
    private var changed: [[UInt8]: [IndexEntry]] = [:]
    /// Whether ``write()`` ran: the file is then read again before any further use.
    private var written = false

    private enum Base {
        case mapped(MappedIndex)
        case loaded([IndexEntry])
    }

    /// The number of entries from which an index is written split when `core.splitIndex` is
    /// not set: below it, writing the whole index costs less than a millisecond or two more
    /// than writing a split one (BENCHMARKS.md, "Index").
    package static let splitThreshold = 50_000

    private init(gitdir: String, splitSetting: Bool?, base: Base, sharedID: ObjectID?) {
        self.gitdir = gitdir
        self.splitSetting = splitSetting
        self.base = base
        self.sharedID = sharedID
    }

    /// Reads the index of the repository whose `.git` folder is `gitdir`; an index that does
    /// not exist yet is empty. `splitIndex` is the repository's `core.splitIndex` (nil: not
    /// set), which decides the form ``write()`` gives it.
    package static func open(gitdir: String, splitIndex: Bool? = nil) throws(GitFormatError) -> Index {
        let gitdir = gitdir.hasSuffix("/") ? gitdir : gitdir + "/"
        let path = gitdir + "index"
        guard let file = try MappedFile(path: path) else {
            return Index(gitdir: gitdir, splitSetting: splitIndex, base: .loaded([]), sharedID: nil)
        }
        let (base, link, entries) = try read(file, path: path)
        guard let link else {
            return Index(gitdir: gitdir, splitSetting: splitIndex, base: base, sharedID: nil)
        }
        let sharedPath = gitdir + "sharedindex." + link.sharedID.hex
        guard let sharedFile = try MappedFile(path: sharedPath) else {
            throw failure(.notFound, "the index links to \(sharedPath), which is missing", "cairn_index_read")
        }
        let (shared, sharedLink, _) = try read(sharedFile, path: sharedPath)
        guard sharedLink == nil else {
            throw failure(.corrupt, "\(sharedPath) is not a valid shared index: it links to another one", "cairn_index_read")
        }
        let index = Index(gitdir: gitdir, splitSetting: splitIndex, base: shared, sharedID: link.sharedID)
        try index.apply(link, entries: entries ?? [])
        return index
    }

    /// Maps or parses one index file: its entries as a base, its link, and — for a split
    /// index, which is small — its own entries parsed.
    private static func read(_ file: MappedFile, path: String) throws(GitFormatError)
        -> (base: Base, link: IndexFile.Link?, entries: [IndexEntry]?)
    {
        if try IndexFile.header(file.bytes, path: path) == 4 {
            let parsed = try IndexFile.parse(file.bytes, path: path)
            return (.loaded(sorted(parsed.entries)), parsed.link, parsed.link == nil ? nil : parsed.entries)
        }
        let mapped = try MappedIndex(file: file, path: path)
        guard let link = mapped.link else { return (.mapped(mapped), nil, nil) }
        var entries: [IndexEntry] = []
        for position in 0..<mapped.count { entries.append(try mapped.entry(at: position)) }
        return (.mapped(mapped), link, entries)
    }

    /// The entry staged for `path` (stage 0), if any.
    package func entry(for path: String) throws(GitFormatError) -> IndexEntry? {
        try readAgainIfWritten()
        return try currentEntries(of: Array(path.utf8)).first { $0.stage == 0 }
    }

    /// Stages `entry` for its path, replacing whatever was staged there (every stage of a
    /// conflicted path: staging resolves it).
    package func stage(_ entry: IndexEntry) throws(GitFormatError) {
        try readAgainIfWritten()
        var entry = entry
        entry.flags &= ~IndexFile.stageMask
        entry.extendedFlags = 0
        changed[entry.pathBytes] = [entry]
    }

    /// Unstages `path` (every stage of it).
    package func remove(path: String) throws(GitFormatError) {
        try readAgainIfWritten()
        changed[Array(path.utf8)] = []
    }

    /// Every staged entry of every stage, sorted by path then stage. Reads the whole index:
    /// for scans.
    package func allEntries() throws(GitFormatError) -> [IndexEntry] {
        try readAgainIfWritten()
        var entries: [IndexEntry] = []
        entries.reserveCapacity(baseCount + changed.count)
        for run in runs() {
            switch run {
            case .base(let positions):
                for position in positions { entries.append(try baseEntry(at: position)) }
            case .changed(let replacing):
                entries += replacing
            }
        }
        return entries
    }

    /// Writes the index, whole or split (see the type's description), through
    /// `.git/index.lock` as git does.
    package func write() throws(GitFormatError) {
        try readAgainIfWritten()
        var total = baseCount
        for (path, entries) in changed { total += entries.count - basePositions(of: path).count }
        let split = splitSetting ?? (total >= Self.splitThreshold)
        if split, let sharedID, case .mapped(let shared) = base,
            changed.count <= Self.reshareThreshold(shared.count)
        {
            try FileWriter.replace(gitdir + "index", with: splitBytes(shared: shared, id: sharedID), what: "the index")
        } else {
            let whole = try wholeBytes()
            if split {
                let id = ObjectID(rawBytes: Array(whole.suffix(IndexFile.trailerSize)))
                let sharedPath = gitdir + "sharedindex." + id.hex
                if !Syscalls.exists(sharedPath) { try FileWriter.replace(sharedPath, with: whole, what: "the shared index") }
                var small = IndexFile.startFile(version: 2, capacity: 0)
                IndexFile.finish(&small, count: 0, link: IndexFile.Link(sharedID: id, deleted: [], replaced: []))
                try FileWriter.replace(gitdir + "index", with: small, what: "the index")
                removeSharedParts(except: [id, sharedID].compactMap { $0 })
            } else {
                try FileWriter.replace(gitdir + "index", with: whole, what: "the index")
                removeSharedParts(except: [sharedID].compactMap { $0 })
            }
        }
        written = true
    }

    /// How many changed paths a split `.git/index` may record before a new shared part is
    /// cheaper: half the store for small ones, at most 2,000 (about 200 KB) for large ones.
    static func reshareThreshold(_ sharedCount: Int) -> Int {
        min(2_000, max(64, sharedCount / 2))
    }

    // MARK: - Internals

    private func readAgainIfWritten() throws(GitFormatError) {
        guard written else { return }
        let reread = try Self.open(gitdir: gitdir, splitIndex: splitSetting)
        base = reread.base
        sharedID = reread.sharedID
        changed = reread.changed
        written = false
    }

    private var baseCount: Int {
        switch base {
        case .mapped(let mapped): mapped.count
        case .loaded(let entries): entries.count
        }
    }

    private func baseEntry(at position: Int) throws(GitFormatError) -> IndexEntry {
        switch base {
        case .mapped(let mapped): try mapped.entry(at: position)
        case .loaded(let entries): entries[position]
        }
    }

    private func basePositions(of path: [UInt8]) -> Range<Int> {
        switch base {
        case .mapped(let mapped):
            return mapped.positions(of: path)
        case .loaded(let entries):
            var low = 0
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].pathBytes.lexicographicallyPrecedes(path) { low = middle + 1 } else { high = middle }
            }
            var upper = low
            while upper < entries.count, entries[upper].pathBytes == path { upper += 1 }
            return low..<upper
        }
    }

    /// The entries of `path` now, every stage.
    private func currentEntries(of path: [UInt8]) throws(GitFormatError) -> [IndexEntry] {
        if let entries = changed[path] { return entries }
        var found: [IndexEntry] = []
        for position in basePositions(of: path) { found.append(try baseEntry(at: position)) }
        return found
    }

    /// A stretch of the index in order: base entries kept as they are, or the entries of one
    /// changed path in place of its base entries.
    private enum Run {
        case base(Range<Int>)
        case changed([IndexEntry])
    }

    /// The whole index in order, as runs of kept base entries and changed paths.
    private func runs() -> [Run] {
        var runs: [Run] = []
        var cursor = 0
        for path in changed.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let positions = basePositions(of: path)
            if cursor < positions.lowerBound { runs.append(.base(cursor..<positions.lowerBound)) }
            runs.append(.changed(changed[path]!))
            cursor = max(cursor, positions.upperBound)
        }
        if cursor < baseCount { runs.append(.base(cursor..<baseCount)) }
        return runs
    }

    /// The whole index as one file: unchanged entries copied from the mapped base as they
    /// are, changed paths written anew.
    private func wholeBytes() throws(GitFormatError) -> [UInt8] {
        let needsExtended: Bool =
            switch base {
            case .mapped(let mapped): mapped.hasExtendedFlags
            case .loaded(let entries): entries.contains { $0.extendedFlags != 0 }
            }
        let version: UInt32 = needsExtended ? 3 : 2
        var bytes = IndexFile.startFile(version: version, capacity: baseCount * 112)
        var count = 0
        for run in runs() {
            switch run {
            case .base(let positions):
                count += positions.count
                switch base {
                case .mapped(let mapped):
                    mapped.appendEntries(positions, to: &bytes)
                case .loaded(let entries):
                    for entry in entries[positions] { IndexFile.append(entry, to: &bytes, version: version) }
                }
            case .changed(let entries):
                count += entries.count
                for entry in entries { IndexFile.append(entry, to: &bytes, version: version) }
            }
        }
        IndexFile.finish(&bytes, count: count, link: nil)
        return bytes
    }

    /// A split `.git/index` recording the changes against `shared`: a shared entry whose
    /// path and stage are staged again is replaced, one no longer staged is deleted, and the
    /// rest are added.
    private func splitBytes(shared: MappedIndex, id: ObjectID) throws(GitFormatError) -> [UInt8] {
        var replaced: [(position: Int, entry: IndexEntry)] = []
        var deleted: [Int] = []
        var added: [IndexEntry] = []
        for path in changed.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            var now = changed[path]!
            for position in shared.positions(of: path) {
                let stage = try shared.entry(at: position).stage
                guard let match = now.firstIndex(where: { $0.stage == stage }) else {
                    deleted.append(position)
                    continue
                }
                var entry = now.remove(at: match)
                entry.pathBytes = []
                replaced.append((position, entry))
            }
            added += now
        }
        replaced.sort { $0.position < $1.position }
        let entries = replaced.map { $0.entry } + added
        let version: UInt32 = entries.contains { $0.extendedFlags != 0 } ? 3 : 2
        var bytes = IndexFile.startFile(version: version, capacity: entries.count * 112)
        for entry in entries { IndexFile.append(entry, to: &bytes, version: version) }
        IndexFile.finish(
            &bytes, count: entries.count,
            link: IndexFile.Link(sharedID: id, deleted: deleted.sorted(), replaced: replaced.map { $0.position }))
        return bytes
    }

    /// Takes in the changes a split `.git/index` records against its shared part, as git
    /// merges them: replacements take the place (and the name) of their shared entries,
    /// deleted ones go, and the other entries are added, each replacing a shared entry of
    /// the same path and stage.
    private func apply(_ link: IndexFile.Link, entries: [IndexEntry]) throws(GitFormatError) {
        let count = baseCount
        guard link.replaced.count <= entries.count, link.replaced.allSatisfy({ $0 < count }),
            link.deleted.allSatisfy({ $0 < count }),
            entries.prefix(link.replaced.count).allSatisfy({ $0.pathBytes.isEmpty })
        else {
            throw failure(.corrupt, "\(gitdir)index has a link extension that does not fit its shared index", "cairn_index_read")
        }
        for (position, entry) in zip(link.replaced, entries) {
            let old = try baseEntry(at: position)
            var entry = entry
            entry.pathBytes = old.pathBytes
            try replace(old.pathBytes, stage: old.stage, with: entry)
        }
        for position in link.deleted {
            let old = try baseEntry(at: position)
            try replace(old.pathBytes, stage: old.stage, with: nil)
        }
        for entry in entries.dropFirst(link.replaced.count) {
            try replace(entry.pathBytes, stage: entry.stage, with: entry)
        }
    }

    /// Puts `entry` in place of the entry of `path` at `stage` (nil: removes that entry).
    private func replace(_ path: [UInt8], stage: Int, with entry: IndexEntry?) throws(GitFormatError) {
        var now: [IndexEntry] = []
        for existing in try currentEntries(of: path) where existing.stage != stage { now.append(existing) }
        if let entry { now.append(entry) }
        now.sort { $0.stage < $1.stage }
        changed[path] = now
    }

    private static func sorted(_ entries: [IndexEntry]) -> [IndexEntry] {
        entries.enumerated().sorted { left, right in
            if left.element.pathBytes != right.element.pathBytes {
                return left.element.pathBytes.lexicographicallyPrecedes(right.element.pathBytes)
            }
            return (left.element.stage, left.offset) < (right.element.stage, right.offset)
        }.map(\.element)
    }

    /// Removes shared parts no longer linked (git would let them expire; none of them is
    /// used once the index no longer names it).
    private func removeSharedParts(except keep: [ObjectID]) {
        let kept = Set(keep.map(\.hex))
        for name in FolderListing.names(atPath: gitdir) ?? []
        where name.hasPrefix("sharedindex.") && !kept.contains(String(name.dropFirst(12))) {
            _ = Syscalls.unlink(gitdir + name)
        }
    }
}
