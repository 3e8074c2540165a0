import CairnMerge
import CairnSystem
import Git
import GitFormat
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Store {
    /// The file that says a move of the working tree to another commit is under way:
    /// `<from> <to>` (`-` for none), written before the first file changes and removed after
    /// the branch points to `<to>`.
    var movePath: String { repository.gitdir + StoreLayout.movingFile }

    /// Makes the working tree, the index and the branch those of commit `target`, changing
    /// only the files that differ from commit `from` (the branch's commit now, nil for none).
    /// The caller holds the lock and has nothing pending.
    ///
    /// Crash-safe: the move is noted first, files are written and the index saved, the disk
    /// synced, then the branch moved (compare-and-swap from `from`) and the note removed. A
    /// move cut short is finished by the next command that takes the lock. Returns the paths
    /// of the files it changed.
    @discardableResult
    func moveWorkingTree(from: ObjectID?, to target: ObjectID) throws -> [String] {
        let differences = try changedFiles(from: from, to: target)
        // A working tree with nothing but git's folder (a store being restored) holds no
        // edit to lose: one listing instead of a look at every file's place.
        if !(from == nil && workingTreeHoldsOnlyGit) {
            try checkNoHandEdits(differences)
        }
        try FileSystem.writeAtomically(Array("\(from?.hex ?? "-") \(target.hex)\n".utf8), to: movePath, durable: true)
        try rewriteFiles(differences, fresh: from == nil)
        try repository.setReference(
            branchReference, to: target, expecting: from,
            message: "cairn: move to \(target.short)")
        _ = try FileSystem.removeFile(movePath)
        noteWhatCairnLeft()
        return differences.map(\.path)
    }

    /// Finishes a move of the working tree that a killed process left half done. The caller
    /// holds the lock. A move moves the branch, so `HEAD` is read first whatever its stamp
    /// (see ``checkHeadOnBranch(_:trustingStamp:)``), even under a put.
    func finishInterruptedMove(_ what: String) throws {
        guard let bytes = try FileSystem.read(movePath) else { return }
        try checkHeadOnBranch(what)
        try lock.noteBusy()
        let fields = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count == 2, let target = ObjectID(hex: String(fields[1])) else {
            _ = try FileSystem.removeFile(movePath)
            return
        }
        let from = ObjectID(hex: String(fields[0]))
        let head = try repository.reference(branchReference)
        if head == from || head == target {
            try rewriteFiles(changedFiles(from: from, to: target))
            if head != target {
                try repository.setReference(
                    branchReference, to: target, expecting: from,
                    message: "cairn: finish the move to \(target.short)")
            }
        }
        _ = try FileSystem.removeFile(movePath)
    }

    /// Undoes a move of the working tree that failed before its branch moved (a sync that
    /// failed midway goes back to where it started): the files get their content of the
    /// commit the move started from again, and the note goes. The caller holds the lock. When
    /// this fails too, the note stays, and the next command finishes the move instead.
    func undoInterruptedMove() throws {
        guard let bytes = try FileSystem.read(movePath) else { return }
        try lock.noteBusy()
        let fields = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count == 2, let from = ObjectID(hex: String(fields[0])), let target = ObjectID(hex: String(fields[1])),
            try repository.reference(branchReference) == from
        else { return }
        try rewriteFiles(changedFiles(from: target, to: from))
        _ = try FileSystem.removeFile(movePath)
    }

    /// The files that differ between two commits (nil: none), with their entries in each.
    private func changedFiles(from: ObjectID?, to target: ObjectID) throws -> [TreeDifference] {
        let oldTree = try from.map { try repository.commit($0).treeID }
        return try repository.differences(among: [oldTree, repository.commit(target).treeID])
    }

    /// Whether the store's folder holds nothing but `.git`.
    private var workingTreeHoldsOnlyGit: Bool {
        guard case .success(let entries) = Syscalls.entries(of: folder, followingLink: false) else { return false }
        return entries.allSatisfy { $0.name == ".git" }
    }

    /// Refuses to move while a file the move would replace or remove holds something else than
    /// its last checkpoint: an edit by hand that no scan has recorded, which the move would lose.
    private func checkNoHandEdits(_ differences: [TreeDifference]) throws {
        for difference in differences {
            // An asset's pointer is derived from its document, and a file git-lfs filled with
            // the asset's bytes holds a copy of what `.git/lfs/objects` keeps: nothing to lose.
            if StoreLayout.assetField(ofPointerFile: difference.path) != nil { continue }
            let file = absolute(difference.path)
            let old = difference.entries[0]?.id
            switch FileSystem.kind(file) {
            case nil where old == nil || difference.entries[1] == nil: continue
            case .file? where old != nil || difference.entries[1] != nil:
                // The file holds the old content, or already the new: the move loses nothing.
                let now = try repository.hashFile(atPath: file)
                if now == old || now == difference.entries[1]?.id { continue }
            default: break
            }
            throw CairnError(
                .invalidInput, "\(difference.path) was changed by hand since the last checkpoint, and the sync would replace it",
                remedy: .checkpointHandEdits)
        }
    }

    /// Writes the files that differ (removing those the new commit lacks), updates their index
    /// entries, and syncs the file system. A `fresh` working tree (the first checkout of a
    /// clone, which nothing reads yet) gets its files written in place, as git's checkout
    /// writes them, without a temporary file each: a move cut short is redone whole anyway.
    private func rewriteFiles(_ differences: [TreeDifference], fresh: Bool = false) throws {
        let index = try repository.openIndex()
        if fresh {
            for entry in try writeFreshFiles(
                differences.compactMap { difference in
                    difference.entries[1].map { (difference.path, $0.id) }
                })
            {
                try index.stage(entry)
            }
        }
        for difference in differences where !fresh {
            let path = difference.path
            if let entry = difference.entries[1] {
                let content = try repository.blobContent(entry.id)
                if difference.entries[0] != nil, FileSystem.kind(absolute(path)) == .file {
                    try FileSystem.replaceContents(of: absolute(path), with: content, spare: repository.gitdir + StoreLayout.spareFile)
                } else {
                    try FileSystem.makeFolders(FileSystem.parent(of: absolute(path)))
                    try FileSystem.writeAtomically(content, to: absolute(path))
                }
                try index.stage(try IndexEntry.forFile(atPath: absolute(path), path: path, id: entry.id))
            } else {
                try FileSystem.removeFile(absolute(path))
                FileSystem.removeEmptyFolders(from: FileSystem.parent(of: absolute(path)), upTo: folder)
                try index.remove(path: path)
            }
        }
        try index.write()
        // One call makes every file written above durable before the branch moves.
        try FileSystem.syncFileSystem(containing: folder)
        loadedSchemaSet = nil
    }

    /// Writes the files of a new working tree, in place, and returns their index entries in
    /// the order given. Creating a file is most of a restore's time, and a folder takes one
    /// new file at a time (the kernel locks it), so the folders are shared out between two
    /// threads, each reading its blobs through its own handle on the repository.
    private func writeFreshFiles(_ files: [(path: String, id: ObjectID)]) throws -> [IndexEntry] {
        let shares = Self.sharedByFolder(files.map(\.path))
        // A second handle only saves time: without one, one thread writes everything.
        let second =
            files.count >= Self.filesWorthASecondThread && !shares[1].isEmpty
            ? try? repository.openedForAnotherThread() : nil
        let lanes = second == nil ? [shares[0] + shares[1]] : shares
        let handles: [Repository] = [repository] + (second.map { [$0] } ?? [])

        let outcomes = LaneOutcomes(count: lanes.count)
        let sources = LaneRepositories(handles)
        let root = folder
        let write: @Sendable (Int) -> Void = { lane in
            let source = sources.handle(lane)
            var made: Set<String> = []
            var entries: [(Int, IndexEntry)] = []
            for position in lanes[lane] {
                // A lane that failed stops the other: the move is redone or undone whole.
                if outcomes.hasFailure { return }
                do {
                    let (path, id) = files[position]
                    let file = root + "/" + path
                    let folder = FileSystem.parent(of: file)
                    if !made.contains(folder) {
                        try FileSystem.makeFolders(folder)
                        made.insert(folder)
                    }
                    try FileSystem.write(source.blobContent(id), to: file)
                    entries.append((position, try IndexEntry.forFile(atPath: file, path: path, id: id)))
                } catch {
                    outcomes.fail(at: position, error)
                    return
                }
            }
            outcomes.finish(lane, entries)
        }
        if lanes.count == 1 {
            write(0)
        } else {
            Syscalls.inTwoThreads(write)
        }
        return try outcomes.entries(count: files.count)
    }

    /// Files shared out between two threads by folder, as positions in `paths`: the largest
    /// folders first, each to the thread with less to write so far. The second is empty when
    /// every file is in one folder.
    static func sharedByFolder(_ paths: [String]) -> [[Int]] {
        var byFolder: [String: [Int]] = [:]
        for (position, path) in paths.enumerated() {
            byFolder[FileSystem.parent(of: path), default: []].append(position)
        }
        var shares: [[Int]] = [[], []]
        for folder in byFolder.values.sorted(by: { ($0.count, $1[0]) > ($1.count, $0[0]) }) {
            shares[shares[0].count <= shares[1].count ? 0 : 1] += folder
        }
        return shares
    }

    /// From how many files a new working tree is written on two threads: below, opening a
    /// second handle on the repository costs more than it saves.
    static let filesWorthASecondThread = 64
}

/// What the threads of ``Store/writeFreshFiles(_:)`` wrote: each lane's index entries once
/// it is done, or the first file (in the order given) that failed.
private final class LaneOutcomes: Sendable {
    private struct State {
        var entries: [[(Int, IndexEntry)]?]
        var failure: (position: Int, error: any Error)?
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(State(entries: Array(repeating: nil, count: count)))
    }

    var hasFailure: Bool { state.withLock { $0.failure != nil } }

    func finish(_ lane: Int, _ entries: [(Int, IndexEntry)]) {
        state.withLock { $0.entries[lane] = entries }
    }

    func fail(at position: Int, _ error: any Error) {
        state.withLock { state in
            if state.failure.map({ position < $0.position }) ?? true { state.failure = (position, error) }
        }
    }

    /// Every lane's entries in the order of the files; throws the failure of the first file
    /// that failed.
    func entries(count: Int) throws -> [IndexEntry] {
        let (entries, failure) = state.withLock { ($0.entries, $0.failure) }
        if let failure { throw failure.error }
        var ordered = [IndexEntry?](repeating: nil, count: count)
        for case let lane? in entries {
            for (position, entry) in lane { ordered[position] = entry }
        }
        return ordered.map { entry in
            guard let entry else { preconditionFailure("a lane ended without writing its files or failing") }
            return entry
        }
    }
}
