import CMalloc
import CairnCommandLine
import CairnToolTestSupport
import Glibc
import Testing

/// The tool keeps the memory its processes free for their next allocations (glibc's
/// `mallopt`), so the zlib stream libgit2 opens for each object it packs or reads does not
/// grow the heap again and touch fresh pages. Each story runs in a process of its own, where
/// glibc's allocator starts with its defaults.
@Suite(.historiesVerified) struct ToolKeepsFreedMemoryTests {

    @Test func aBlockBelowTheThresholdComesFromTheHeap() async {
        await #expect(processExitsWith: .success) {
            // glibc took both settings (the heap's trim threshold with it: the heap's top is
            // shared with the test's other threads here, so its shrinking is not watched).
            if !ProcessMemory.keepFreedMemory() { exit(3) }
            // Half a megabyte: above glibc's default threshold (128 KiB), so mapped on its own
            // unless the setting was taken.
            let before = mallinfo2()
            guard let block = malloc(Int(ProcessMemory.mmapThreshold) / 2) else { exit(4) }
            let during = mallinfo2()
            free(block)
            if during.hblks != before.hblks { exit(5) }
        }
    }
}
