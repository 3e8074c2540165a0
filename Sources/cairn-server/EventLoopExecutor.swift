import CExecutorHook
import NIOCore
import NIOPosix

/// Runs the process's tasks on the event loops of NIO's group of the process
/// (`MultiThreadedEventLoopGroup.singleton`), which carry the server's connections, instead of
/// the runtime's default pool of threads.
///
/// What NIO's `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor` does,
/// but with the runtime's hook named at link time rather than looked up with `dlsym`: linked
/// into the program (`--static-swift-stdlib`, as the release builds and the benchmarks link
/// it), the runtime's symbols are left out of the dynamic symbol table, NIO's look-up fails,
/// and the server would stay on the default pool without a word. One way for every build,
/// so that the tests run the code a release runs.
enum EventLoopExecutor {
    /// Installs it; false when another global executor was installed already. Must run
    /// before the first task starts.
    static func install() -> Bool {
        // The runtime calls the hook with the job and its own enqueue function: two pointers,
        // passed in the registers C passes them in (as NIO's installer assumes too).
        let hook: @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Void = { job, _ in
            guard let job else { return }
            // `any()` is the event loop running this thread if it is one: no hand-off.
            let loop = MultiThreadedEventLoopGroup.singleton.any()
            loop.executor.enqueue(ExecutorJob(unsafeBitCast(job, to: UnownedJob.self)))
        }
        return cairn_set_global_enqueue_hook(unsafeBitCast(hook, to: UnsafeMutableRawPointer.self)) == 1
    }
}
