import CairnTestSupport
import CairnToolTestSupport
import Testing

/// The fault harness's suites (`CrashPointTests`, `IOErrorTests`), one after the other: each
/// keeps two processes busy for minutes, and together they would starve the suites that run
/// beside them (the SSH and HTTP tests have time limits).
@Suite(.serialized, .historiesVerified) struct FaultInjectionTests {}
