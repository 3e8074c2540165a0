/// The time a ``ProgressStore`` schedules checkpoints and syncs by. ``SystemClock`` is the
/// real one; ``ManualClock`` lets tests move time by hand and run in no time.
public protocol CheckpointClock: Sendable {
    /// Seconds since a fixed moment.
    func now() -> Double
    /// Runs `action` once `seconds` have passed, on some thread; cancel it with the result.
    func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) -> ScheduledAction
}
