import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The programs the tests run start clean: stdin from /dev/null unless given, no descriptor of
/// the test run (another test's pipe held open by a child would keep that test waiting), and
/// an exit status and a killing signal told apart.
@Suite(.historiesVerified) struct ChildProcessTests {
    @Test func aChildReadsNothingAndHoldsNoDescriptorOfTheTestRun() throws {
        let stdin = try runProcess("/usr/bin/readlink", ["/proc/self/fd/0"])
        #expect(stdin.stdout == "/dev/null\n")

        let folder = TemporaryFolder()
        let descriptor = open(folder.path + "/held", O_CREAT | O_WRONLY, 0o600)
        try #require(descriptor > 2)
        defer { close(descriptor) }
        let inherited = try runProcess("/usr/bin/readlink", ["/proc/self/fd/\(descriptor)"])
        #expect(inherited.status != 0, "the child holds descriptor \(descriptor): \(inherited.stdout)")
    }

    @Test func anExitStatusAndAKillingSignalAreToldApart() throws {
        let exited = ChildProcess()
        exited.executableURL = URL(fileURLWithPath: "/bin/sh")
        exited.arguments = ["-c", "exit 3"]
        #expect(!exited.isRunning)
        try exited.run()
        exited.waitUntilExit()
        #expect(exited.terminationReason == .exit && exited.terminationStatus == 3)

        let killed = ChildProcess()
        killed.executableURL = URL(fileURLWithPath: "/bin/sleep")
        killed.arguments = ["30"]
        killed.standardOutput = FileHandle.nullDevice
        try killed.run()
        #expect(killed.isRunning)
        killed.terminate()
        killed.waitUntilExit()
        #expect(killed.terminationReason == .uncaughtSignal && killed.terminationStatus == SIGTERM)
    }
}
