/// What ``Syscalls/inTwoThreads(_:)`` hands the thread it makes.
final class SecondThreadBody: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}
