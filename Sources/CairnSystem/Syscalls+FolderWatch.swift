#if canImport(Glibc)
import Glibc
#endif

extension Syscalls {
    /// What the kernel reports of a watched folder (``folderEvents(of:)``).
    package enum FolderEvent: Equatable {
        /// An entry named `name` was created, deleted, or moved in or out (or both, in a swap).
        case entry(watch: Int32, name: String)
        /// The folder itself was deleted, moved, or its file system unmounted: the watch ended.
        case folderGone(watch: Int32)
        /// More happened than the queue holds: some events were lost.
        case overflowed
    }

    /// A new watcher of folders (`inotify_init1`), which never blocks and is closed on exec.
    package static func makeFolderWatcher() -> Result<Int32, Errno> {
        valueOrErrno(inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC)))
    }

    /// Watches the entries of the folder at `path`, a link there followed (`inotify_add_watch`):
    /// names created, deleted or moved in or out, and the folder deleted or moved. The
    /// watch's number (the same for a folder watched already).
    package static func watchEntries(of path: String, with watcher: Int32) -> Result<Int32, Errno> {
        let mask =
            UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO)
            | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR)
        return retryingOnInterrupt { inotify_add_watch(watcher, path, mask) }
    }

    /// Ends a watch (its `folderGone` event follows).
    package static func unwatch(_ watch: Int32, with watcher: Int32) {
        _ = inotify_rm_watch(watcher, watch)
    }

    /// The events queued for `watcher` since the last call, without waiting. Names that are
    /// not UTF-8 are left out, as listings leave them out. At most 64 reads of 16 KiB: a
    /// queue that other writers keep filling faster ends in `overflowed`, as a full one does.
    package static func folderEvents(of watcher: Int32) -> Result<[FolderEvent], Errno> {
        let header = MemoryLayout<inotify_event>.size
        let gone = UInt32(IN_IGNORED) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_UNMOUNT)
        return withUnsafeTemporaryAllocation(byteCount: 16 * 1024, alignment: MemoryLayout<inotify_event>.alignment) { buffer in
            var events: [FolderEvent] = []
            for _ in 0..<64 {
                let count: Int
                switch retryingOnInterrupt({ Glibc.read(watcher, buffer.baseAddress, buffer.count) }) {
                case .success(let read): count = read
                case .failure(let error) where error == .wouldBlock: return .success(events)
                case .failure(let error): return .failure(error)
                }
                guard count > 0 else { return .success(events) }
                var offset = 0
                while offset + header <= count {
                    let watch = buffer.load(fromByteOffset: offset, as: Int32.self)
                    let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                    let name = UnsafeRawBufferPointer(rebasing: buffer[(offset + header)..<min(count, offset + header + length)])
                    offset += header + length
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        events.append(.overflowed)
                    } else if mask & gone != 0 {
                        events.append(.folderGone(watch: watch))
                    } else if let text = String(validating: name.prefix { $0 != 0 }, as: UTF8.self), !text.isEmpty {
                        events.append(.entry(watch: watch, name: text))
                    }
                }
            }
            events.append(.overflowed)
            return .success(events)
        }
    }

    /// Whether the file system holding `path` is one whose every change the kernel sees and
    /// reports to watchers (`statfs`): ext2–4, XFS, Btrfs, tmpfs, F2FS, bcachefs. Not a network
    /// file system, whose files another machine changes unseen, nor an overlay, whose lower
    /// layers change under it.
    package static func reportsEveryChange(_ path: String) -> Bool {
        guard let statfs = statfsCall else { return false }
        // `struct statfs` begins with its type, a word (`__fsword_t`); the rest is room.
        let type: Int? = withUnsafeTemporaryAllocation(byteCount: 512, alignment: 16) { info in
            guard case .success = retryingOnInterrupt({ statfs(path, info.baseAddress!) }) else { return nil }
            return info.load(as: Int.self)
        }
        let local: Set<UInt32> = [0xEF53, 0x5846_5342, 0x9123_683E, 0x0102_1994, 0xF2F5_2010, 0xCA45_1A4E]
        return type.map { local.contains(UInt32(truncatingIfNeeded: $0)) } ?? false
    }

    /// `statfs`, whose header Swift's Glibc module leaves out.
    private static let statfsCall: (@convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer) -> Int32)? = {
        guard let symbol = dlsym(nil, "statfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer) -> Int32).self)
    }()
}
