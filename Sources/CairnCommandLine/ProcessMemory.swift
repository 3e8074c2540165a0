import CMalloc

/// How the tool's processes use glibc's allocator: memory they free is kept for their next
/// allocation rather than handed back to the system at once.
///
/// libgit2 opens a zlib stream for every object it packs, indexes or reads (four 64 KiB
/// buffers for each deflate), and its pack threads each work in an arena of their own. With
/// glibc's defaults, each stream's end shrinks the heap (`brk`, or `madvise` in a thread's
/// arena) and the next one grows it again and touches fresh pages. Keeping up to
/// ``trimThreshold`` of freed memory at the top of each heap, and serving requests up to
/// ``mmapThreshold`` from the heap rather than from mappings of their own, takes that away:
/// three syncs over a path remote used about a tenth less CPU (`perf`: the pack threads'
/// share fell from a fifth to a tenth). In return, freed memory stays resident (up to
/// ``trimThreshold`` in each thread's heap) until the process ends, and glibc no longer
/// raises its threshold by itself, so a block above ``mmapThreshold`` is mapped afresh each
/// time; the benchmark's peak-memory rows are measured with these settings.
///
/// An app that embeds the library keeps its own allocator settings: this is the choice of
/// the `cairn` program, made first thing in each of its processes.
package enum ProcessMemory {
    /// Requests up to this size come from the heap (glibc's default: 128 KiB, raised by
    /// itself, up to 32 MiB, as large blocks are freed; not once it is set).
    package static let mmapThreshold: Int32 = 1 << 20
    /// Free memory at the top of a heap beyond this size is handed back (glibc's default:
    /// 128 KiB, raised with ``mmapThreshold``).
    package static let trimThreshold: Int32 = 64 << 20

    /// Sets both thresholds for the rest of the process (`mallopt`). Returns whether glibc
    /// took both.
    @discardableResult
    package static func keepFreedMemory() -> Bool {
        mallopt(M_MMAP_THRESHOLD, mmapThreshold) == 1 && mallopt(M_TRIM_THRESHOLD, trimThreshold) == 1
    }
}
