import Git

/// Repository handles for work shared out between threads, one per lane: a restore's new
/// working tree (``Store/writeFreshFiles(_:)``), the documents a merge reads
/// (``RepositoryMergeSource/merging(_:_:)``).
struct LaneRepositories: @unchecked Sendable {
    // Unchecked: a libgit2 handle must not be used by two threads at once. Each lane uses its
    // own handle (the first the caller's, the others opened for them with
    // ``Repository/openedForAnotherThread()``), and the caller is blocked until every lane
    // has ended.
    private let handles: [Repository]

    init(_ handles: [Repository]) {
        self.handles = handles
    }

    func handle(_ lane: Int) -> Repository { handles[lane] }
}
