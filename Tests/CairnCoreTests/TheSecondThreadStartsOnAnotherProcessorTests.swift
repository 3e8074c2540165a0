import CairnSystem
import Synchronization
import Testing

@testable import CairnCore

#if canImport(Glibc)
import Glibc
import CairnToolTestSupport
#endif

/// The thread a merge or a restore shares its work with starts on another processor than
/// the caller's, so that it does not wait behind the caller for a time slice, then may run
/// on every processor the caller may.
@Suite(.historiesVerified) struct TheSecondThreadStartsOnAnotherProcessorTests {
    /// `pthread_attr_getaffinity_np`, which Swift's Glibc module does not show.
    let attributeAffinity = dlsym(nil, "pthread_attr_getaffinity_np").map {
        unsafeBitCast($0, to: (@convention(c) (UnsafePointer<pthread_attr_t>, Int, UnsafeMutablePointer<cpu_set_t>) -> Int32).self)
    }

    @Test(.enabled(if: (Syscalls.allowedProcessors()?.count ?? 0) >= 2, "one processor: nowhere else to start"))
    func theNewThreadMayStartOnEveryProcessorButOne() throws {
        let allowed = try #require(Syscalls.allowedProcessors())
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        let given = try #require(Syscalls.startingElsewhere(&attributes))
        #expect(Syscalls.processors(in: given) == allowed)
        let read = try #require(attributeAffinity)
        var set = cpu_set_t()
        let result = read(&attributes, MemoryLayout<cpu_set_t>.size, &set)
        #expect(result == 0)
        let starting = Syscalls.processors(in: set)
        #expect(starting.count == allowed.count - 1)
        #expect(starting.isSubset(of: allowed))
    }

    @Test func onceRunningTheThreadMayUseEveryProcessorTheCallerMay() throws {
        let allowed = Syscalls.allowedProcessors()
        let seen = Mutex<[Int: Set<Int>?]>([:])
        Syscalls.inTwoThreads { lane in
            seen.withLock { $0[lane] = Syscalls.allowedProcessors() }
        }
        #expect(seen.withLock { $0.count } == 2)
        #expect(seen.withLock { $0[1] } == allowed)
        #expect(seen.withLock { $0[0] } == allowed)
        #expect(Syscalls.allowedProcessors() == allowed)
    }
}
