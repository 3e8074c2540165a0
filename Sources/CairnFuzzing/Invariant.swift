/// The check a fuzz target makes: an invariant that does not hold stops the process with its
/// description, which is what libFuzzer reports as a crash and saves the input of.
public enum Invariant {
    /// Stops the process with `message` unless `condition` holds.
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        // fatalError, not preconditionFailure: an optimized build keeps its message.
        if !condition { fatalError("invariant broken: " + message()) }
    }
}
