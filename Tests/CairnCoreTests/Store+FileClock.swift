import CairnSystem

@testable import CairnCore

extension Store {
    /// Moves the time the store compares file stamps with `seconds` past the real time, as if
    /// that long had passed since every file last changed (the kernel's change times cannot be
    /// set back, so time moves on instead).
    func letTimePass(_ seconds: Int) {
        fileClock = {
            var now = Syscalls.now()
            now.seconds += seconds
            return now
        }
    }

    /// Stops the clock the store compares file stamps with at `time`.
    func stopFileClock(at time: Syscalls.Time) {
        fileClock = { time }
    }
}
