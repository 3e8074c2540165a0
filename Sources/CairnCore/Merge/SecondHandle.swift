import Git

/// The handle a merge's second thread reads with (``RepositoryMergeSource/merging(_:_:)``):
/// opened by that thread when the first batch worth it comes, while the first thread
/// already merges, then kept for the merge's other batches. A merge of many documents hands
/// them over in batches, and opening a handle reads the repository's configuration and
/// lists its packs again.
final class SecondHandle: @unchecked Sendable {
    // Unchecked: the second thread alone asks for the handle while a batch is merged, and
    // the caller, who waits for that thread to end, only between batches. The store's own
    // handle, which the first thread merges with meanwhile, is not touched: its folder is
    // taken here.
    private let folder: String?
    /// Nil until asked; then the handle, or nil when none could be opened (libgit2 without
    /// threads, a hook's repository, a failure), which is not tried again.
    private var kept: Repository??
    /// How many times a handle was asked of libgit2: at most once.
    private(set) var opened = 0

    init(beside repository: Repository) {
        folder = repository.folderForAnotherThread
    }

    /// Whether a handle was asked for and none could be opened: the merge stays on one thread.
    var isUnavailable: Bool {
        if case .some(nil) = kept { return true }
        return false
    }

    /// The second handle, opened at the first call.
    var handle: Repository? {
        if let kept { return kept }
        opened += 1
        let handle = folder.flatMap { try? Repository(openingAt: $0, checkingPacks: false) }
        kept = .some(handle)
        return handle
    }
}
