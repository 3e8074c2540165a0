#if canImport(Glibc)
import Glibc
#endif

extension Syscalls {
    /// Runs `body(1)` on a thread of its own and `body(0)` on the calling thread, and
    /// returns when both have ended (`pthread_create`, `pthread_join`). A thread of its own,
    /// not a queue's: the calling thread may be one of the few a queue or Swift's tasks run
    /// on, and work that waited for another of them could wait until the caller is done.
    /// When no thread can be made, `body(1)` runs after `body(0)` on the calling thread.
    ///
    /// The new thread starts on another processor than the caller's, then may run on any the
    /// caller may (``startingElsewhere(_:)``): Linux often queued it behind the caller, which
    /// kept that processor for its whole time slice (3 ms) while the other stayed idle. A
    /// merge of 359 books, three batches on two threads, started its second thread up to
    /// 4.7 ms late in a batch and took 21.7 to 32.6 ms; started elsewhere, never more than
    /// 0.1 ms late, it took 21.7 to 23.0.
    package static func inTwoThreads(_ body: @escaping @Sendable (Int) -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        let allowed = startingElsewhere(&attributes)
        let second: @Sendable () -> Void = {
            if var allowed { _ = setAffinityCall?(0, MemoryLayout<cpu_set_t>.size, &allowed) }
            body(1)
        }
        let box = Unmanaged.passRetained(SecondThreadBody(second))
        let start: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
            let body = Unmanaged<SecondThreadBody>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }
        var thread = pthread_t()
        var made = pthread_create(&thread, &attributes, start, box.toOpaque())
        if made != 0, allowed != nil {
            // The processors asked for may not be the thread's to have (a cgroup's cpuset).
            made = pthread_create(&thread, nil, start, box.toOpaque())
        }
        body(0)
        if made == 0 {
            pthread_join(thread, nil)
        } else {
            box.release()
            body(1)
        }
    }

    // MARK: Processors

    /// Sets `attributes` so that a new thread starts on a processor other than the calling
    /// thread's (`pthread_attr_setaffinity_np`), and returns the processors the calling
    /// thread may use, for the new one to take once it runs (`sched_setaffinity`). Nil, and
    /// `attributes` unchanged, when the caller may use one processor only, or glibc lacks a
    /// call.
    package static func startingElsewhere(_ attributes: inout pthread_attr_t) -> cpu_set_t? {
        guard let getAffinityCall, let getCPUCall, let attributeAffinityCall else { return nil }
        var allowed = cpu_set_t()
        guard getAffinityCall(0, MemoryLayout<cpu_set_t>.size, &allowed) == 0 else { return nil }
        let current = getCPUCall()
        guard current >= 0, current < MemoryLayout<cpu_set_t>.size * 8 else { return nil }
        var others = allowed
        let hasOthers = withUnsafeMutableBytes(of: &others) { bytes -> Bool in
            bytes[Int(current) / 8] &= ~UInt8(1 << (Int(current) % 8))
            return bytes.contains { $0 != 0 }
        }
        guard hasOthers, attributeAffinityCall(&attributes, MemoryLayout<cpu_set_t>.size, &others) == 0 else { return nil }
        return allowed
    }

    /// The processors the calling thread may run on (`sched_getaffinity`); nil when glibc
    /// cannot tell.
    package static func allowedProcessors() -> Set<Int>? {
        var allowed = cpu_set_t()
        guard let getAffinityCall, getAffinityCall(0, MemoryLayout<cpu_set_t>.size, &allowed) == 0 else { return nil }
        return processors(in: allowed)
    }

    /// The processors a set names.
    package static func processors(in set: cpu_set_t) -> Set<Int> {
        withUnsafeBytes(of: set) { bytes in
            Set((0..<bytes.count * 8).filter { bytes[$0 / 8] & UInt8(1 << ($0 % 8)) != 0 })
        }
    }

    private static let getAffinityCall: (@convention(c) (Int32, Int, UnsafeMutablePointer<cpu_set_t>) -> Int32)? = {
        dlsym(nil, "sched_getaffinity").map {
            unsafeBitCast($0, to: (@convention(c) (Int32, Int, UnsafeMutablePointer<cpu_set_t>) -> Int32).self)
        }
    }()
    static let setAffinityCall: (@convention(c) (Int32, Int, UnsafePointer<cpu_set_t>) -> Int32)? = {
        dlsym(nil, "sched_setaffinity").map { unsafeBitCast($0, to: (@convention(c) (Int32, Int, UnsafePointer<cpu_set_t>) -> Int32).self) }
    }()
    private static let getCPUCall: (@convention(c) () -> Int32)? = {
        dlsym(nil, "sched_getcpu").map { unsafeBitCast($0, to: (@convention(c) () -> Int32).self) }
    }()
    private static let attributeAffinityCall:
        (@convention(c) (UnsafeMutablePointer<pthread_attr_t>, Int, UnsafePointer<cpu_set_t>) -> Int32)? = {
            dlsym(nil, "pthread_attr_setaffinity_np").map {
                unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<pthread_attr_t>, Int, UnsafePointer<cpu_set_t>) -> Int32).self)
            }
        }()
}
