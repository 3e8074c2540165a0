import CairnMerge
import CairnSystem

/// The names in a store's large folders, kept while the store is open, so that a new
/// document is checked against the IDs of its collection (``Store/checkCaseCollisions(_:)``)
/// without listing thousands of entries at each create.
///
/// Exact whoever changes a folder — this process, another, git — because the kernel reports
/// every change to a watched folder (inotify), where a folder's stamp could stay the same
/// across two changes made in one tick of its clock. An event only names what changed: each
/// named entry is looked up again in the folder itself (`fstatat` on the folder held open,
/// wherever its path leads meanwhile) before the names are used, since a swap of two files
/// reports a name leaving after it arrived. The watch is in place before the folder is
/// listed, so nothing changed after the listing goes unreported. A folder's names are used
/// only while its path still leads to the folder watched (the same device and inode); a
/// queue that ran over, a folder deleted or moved, or a file system whose files may change
/// unseen (a network's, an overlay) make it listed again, as every folder with fewer than
/// ``smallest`` entries is.
final class WatchedFolders {
    /// Folders with fewer entries are listed at each check: that costs less than their names.
    static let smallest = 128
    /// The folders watched at once; the one used longest ago makes way.
    static let most = 16
    /// The names kept at most, over every folder (past them, the folders used longest ago are let go).
    static let mostNames = 250_000

    /// What a check has of a folder's entries.
    enum Entries {
        /// A watched folder's names, by their folded form (``fold(_:)``).
        case names([String: [String]])
        /// A listing just made.
        case listed([String])
    }

    private struct Folder {
        var path: String
        /// The folder, held open: its entries are looked up in it.
        var descriptor: Int32
        var device: UInt64
        var inode: UInt64
        var names: [String: [String]]
        var count: Int
        var used: Int
    }

    /// The inotify instance: nil before the first large folder, -1 where none can be had.
    private var watcher: Int32?
    private var folders: [Int32: Folder] = [:]
    private var watchOfPath: [String: Int32] = [:]
    private var uses = 0

    deinit {
        for folder in folders.values { _ = Syscalls.close(folder.descriptor) }
        if let watcher, watcher >= 0 { _ = Syscalls.close(watcher) }
    }

    /// The entry of the folder at `path` that `id` would be one file with on a
    /// case-insensitive file system (``DocumentID/collides(_:withEntry:)``), if any.
    func collision(of id: String, in path: String) -> String? {
        switch entries(of: path) {
        case .names(let names):
            return names[Self.fold(id)]?.first { DocumentID.collides(id, withEntry: $0) }
        case .listed(let names):
            return names.first { DocumentID.collides(id, withEntry: $0) }
        }
    }

    /// Whether the names of the folder at `path` are kept, watched.
    func isWatching(_ path: String) -> Bool {
        watchOfPath[path].map { folders[$0] != nil } ?? false
    }

    /// Whether no watcher could be had (the user's limit of inotify instances reached).
    var isWithoutWatcher: Bool { watcher == -1 }

    /// The key an entry is kept under: its ID (its name without `.json`) in lower case. Two
    /// names that collide have the same key (a dictionary of strings takes Unicode spellings
    /// as equal, as ``DocumentID/collide(_:_:)`` does), so a check compares only the names
    /// under the ID's key.
    static func fold(_ name: String) -> String {
        (DocumentID.stem(ofFileName: name) ?? name).lowercased()
    }

    /// The entries of the folder at `path`: its names as watched, else a listing.
    func entries(of path: String) -> Entries {
        guard case .success(let status) = Syscalls.status(of: path, followingLinks: true), status.kind == .folder else {
            return .listed(Self.listing(path) ?? [])
        }
        // The path is looked up before the events are read: a folder deleted or replaced
        // before the look-up has its event read now.
        if let watch = watchOfPath[path], let folder = folders[watch], folder.device == status.device, folder.inode == status.inode {
            applyEvents()
            if folders[watch] != nil {
                uses += 1
                folders[watch]!.used = uses
                return .names(folders[watch]!.names)
            }
        }
        if let watch = watchOfPath[path] { forget(watch) }
        return startWatching(path, status: status)
    }

    /// Lists the folder at `path`, and keeps its names if it is large, watched from before
    /// a second listing.
    private func startWatching(_ path: String, status: Syscalls.FileStatus) -> Entries {
        // Most folders are small and need no watch: the first listing says which.
        let first = Self.listing(path) ?? []
        guard first.count >= Self.smallest, first.count <= Self.mostNames, Syscalls.reportsEveryChange(path),
            let watcher = instance(), case .success(let watch) = Syscalls.watchEntries(of: path, with: watcher)
        else {
            return .listed(first)
        }
        // Another path to the same folder (a link) had this watch: its names go with it.
        if folders[watch] != nil { forget(watch, unwatching: false) }
        guard let listed = Self.listing(path) else {
            Syscalls.unwatch(watch, with: watcher)
            return .listed([])
        }
        // Listed again with the watch in place, so that nothing changed after this listing
        // goes unreported. The folder listed must be the one looked up, and watched.
        guard listed.count >= Self.smallest, listed.count <= Self.mostNames,
            case .success(let descriptor) = Syscalls.open(path, .folder)
        else {
            Syscalls.unwatch(watch, with: watcher)
            return .listed(listed)
        }
        guard case .success(let opened) = Syscalls.status(of: descriptor), opened.kind == .folder,
            opened.device == status.device, opened.inode == status.inode,
            case .success(let after) = Syscalls.status(of: path, followingLinks: true),
            after.device == status.device, after.inode == status.inode
        else {
            _ = Syscalls.close(descriptor)
            Syscalls.unwatch(watch, with: watcher)
            return .listed(listed)
        }
        var names: [String: [String]] = [:]
        for name in listed { names[Self.fold(name), default: []].append(name) }
        // The folders used longest ago make way.
        while folders.count >= Self.most || folders.values.reduce(listed.count, { $0 + $1.count }) > Self.mostNames,
            let oldest = folders.min(by: { $0.value.used < $1.value.used })?.key
        {
            forget(oldest)
        }
        uses += 1
        folders[watch] = Folder(
            path: path, descriptor: descriptor, device: status.device, inode: status.inode,
            names: names, count: listed.count, used: uses)
        watchOfPath[path] = watch
        return .names(names)
    }

    /// Brings the names of the watched folders up to date with what the kernel reported:
    /// each entry named is looked up again; a folder gone is forgotten, and every folder
    /// when events were lost.
    private func applyEvents() {
        guard let watcher, watcher >= 0 else { return }
        guard case .success(let events) = Syscalls.folderEvents(of: watcher) else { return forgetAll() }
        // The names each folder's events gave, each once as bytes: two spellings of one
        // name (composed and decomposed) are two entries of a folder.
        var changed: [Int32: [[UInt8]: String]] = [:]
        for event in events {
            switch event {
            case .overflowed:
                return forgetAll()
            case .folderGone(let watch):
                forget(watch)
                changed[watch] = nil
            case .entry(let watch, let name):
                if folders[watch] != nil { changed[watch, default: [:]][Array(name.utf8)] = name }
            }
        }
        for (watch, names) in changed {
            // Taken out while it changes, so that its names are not copied.
            guard var folder = folders.removeValue(forKey: watch) else { continue }
            for name in names.values {
                var exists = false
                if case .success = Syscalls.status(of: name, in: folder.descriptor) { exists = true }
                let key = Self.fold(name)
                let known = folder.names[key]?.contains { $0.utf8.elementsEqual(name.utf8) } ?? false
                if exists, !known {
                    folder.names[key, default: []].append(name)
                    folder.count += 1
                } else if !exists, known {
                    folder.names[key]?.removeAll { $0.utf8.elementsEqual(name.utf8) }
                    if folder.names[key]?.isEmpty == true { folder.names[key] = nil }
                    folder.count -= 1
                }
            }
            folders[watch] = folder
        }
        // Folders grown past the names a store keeps: the ones used longest ago are let go.
        while folders.values.reduce(0, { $0 + $1.count }) > Self.mostNames,
            let oldest = folders.min(by: { $0.value.used < $1.value.used })?.key
        {
            forget(oldest)
        }
    }

    /// The inotify instance, made on first use; nil where none can be had (the user's limit
    /// of instances reached): folders are then listed at each check.
    private func instance() -> Int32? {
        if watcher == nil {
            watcher = (try? Syscalls.makeFolderWatcher().get()) ?? -1
        }
        return watcher.flatMap { $0 >= 0 ? $0 : nil }
    }

    private func forget(_ watch: Int32, unwatching: Bool = true) {
        guard let folder = folders.removeValue(forKey: watch) else { return }
        _ = Syscalls.close(folder.descriptor)
        if watchOfPath[folder.path] == watch { watchOfPath[folder.path] = nil }
        if unwatching, let watcher, watcher >= 0 { Syscalls.unwatch(watch, with: watcher) }
    }

    private func forgetAll() {
        for watch in Array(folders.keys) { forget(watch) }
    }

    /// The names in the folder at `path`, a link there followed; nil when it cannot be listed.
    private static func listing(_ path: String) -> [String]? {
        try? Syscalls.entries(of: path, followingLink: true).get().map(\.name)
    }
}
