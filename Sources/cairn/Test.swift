import ArgumentParser
import CairnCommandLine
import CairnCore
import CairnMerge
import CairnTesting

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// `cairn test PATH…`: scenario files and golden case folders, run against real stores and a
/// real remote in temporary folders.
struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run merge scenario files and golden case folders against real stores and a remote.",
        discussion: """
            PATH is a scenario file, a golden case folder (one holding schema.json), or a folder \
            searched for both (in name order; names starting with . and schema sets left out). \
            Each case runs in a temporary folder; nothing else is written but the --junit file. \
            Prints PASS or FAIL per case, with the failure's file, step and differences, then \
            "N passed, M failed". Exit status 0 only when every case passed. A scenario names its \
            schema set by name (as --schema does) or by a folder path relative to the file.
            """)

    @Argument(help: ArgumentHelp("Scenario files, golden case folders, or folders holding them.", valueName: "path"))
    var paths: [String]

    @Option(help: ArgumentHelp("Also write the results as JUnit XML to this file.", valueName: "file"))
    var junit: String?

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        // A name is found as --schema finds it; a folder path is relative to the scenario file.
        let resolver = SchemaSetResolver.folderPaths { name, _ in try SchemaLocator.set(named: name) }
        let started = Date()
        let results = TestRun(resolver: resolver).run(paths) { result in
            guard !json else { return }
            print((result.passed ? "PASS " : "FAIL ") + result.name)
            if let failure = result.failure {
                print(
                    failure.description.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))
            }
            fflush(nil)
        }
        let failed = results.filter { !$0.passed }.count
        if let junit {
            let xml = JUnitReport(results: results, started: started).xml
            guard FileManager.default.createFile(atPath: junit, contents: Data(xml.utf8)) else {
                throw CairnError(.io, "cannot write the JUnit report to \(junit); name a file in a folder that exists and can be written")
            }
        }
        if json {
            let report = JSONValue.object([
                "cases": .array(results.map { $0.jsonValue }),
                "passed": .integer(Int64(results.count - failed)), "failed": .integer(Int64(failed)),
                "total": .integer(Int64(results.count)),
            ])
            Output.json(report)
        } else {
            print("\(results.count - failed) passed, \(failed) failed")
        }
        if failed > 0 { throw ExitCode(1) }
    }
}
