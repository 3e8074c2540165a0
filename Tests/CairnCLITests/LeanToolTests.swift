import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Every command is a process of its own, so what the tool loads at each start is paid by
/// every checkpoint, sync and merge driver git starts: its modules ask for FoundationEssentials
/// only (dates, data, files), never the whole of Foundation, which would bring ICU and its data
/// into the tool (a 111 MB program instead of 62, about 3 MiB more resident and 2 ms more at
/// each start). A use of a Foundation-only API (`DateFormatter`, `JSONSerialization`, `Bundle`,
/// Foundation's `String.contains`) shows here as the symbol it needs, before it grows the tool.
@Suite(.historiesVerified) struct LeanToolTests {
    @Test func theToolsObjectsNeedNothingFromFoundationBeyondItsEssentials() throws {
        // Every object file the program is linked from, as SwiftPM lists them: Cairn's modules
        // and the packages it uses (ArgumentParser, swift-log, swift-crypto, …).
        let build = URL(fileURLWithPath: CLI.executable).deletingLastPathComponent().path
        let linked = try String(contentsOfFile: build + "/cairn.product/Objects.LinkFileList", encoding: .utf8)
            .split(separator: "\n").map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "'\"")) }
        // SwiftPM's own accessor of a target's resources names Bundle. Nothing calls it
        // (SchemaSets finds its folder from the program's path), so the release build's linker
        // drops it and, with it, every need for Foundation; a debug build keeps it.
        let objects = linked.filter { $0.hasSuffix(".o") && !$0.hasSuffix("/resource_bundle_accessor.swift.o") }
        for module in [
            "CairnMerge", "GitFormat", "Git", "CairnCore", "CairnServer", "CairnSimulation", "CairnTesting",
            "CairnSchemaSets", "CairnCommandLine", "cairn", "ArgumentParser", "Logging", "Crypto",
        ] {
            #expect(objects.contains { $0.contains("/" + module + ".build/") }, "no object file of \(module) in the program's list")
        }
        let undefined = try runProcess("/usr/bin/nm", ["-u"] + objects)
        #expect(undefined.status == 0, "\(undefined.stderr)")
        let symbols = Set(
            undefined.stdout.split(separator: "\n").compactMap { line in
                line.split(separator: " ").last.map(String.init)
            }
        ).sorted()
        #expect(symbols.count > 1_000)
        // The names as arguments, a few hundred at a time (on stdin, the whole list would
        // fill the pipe before its answer is read).
        var lines: [String] = []
        for start in stride(from: 0, to: symbols.count, by: 500) {
            let part = Array(symbols[start..<min(start + 500, symbols.count)])
            let demangled = try runProcess("/usr/bin/env", ["swift-demangle"] + part)
            #expect(demangled.status == 0, "\(demangled.stderr)")
            lines += demangled.stdout.split(separator: "\n").map(String.init)
        }
        #expect(lines.count == symbols.count)
        // Foundation's own types and its extensions of the standard library's and Essentials'
        // types; FoundationEssentials' names do not match (`FoundationEssentials.Data`).
        let fromFoundation = zip(symbols, lines).filter { _, line in
            line.contains("(extension in Foundation)") || line.contains(" Foundation.") || line.hasPrefix("Foundation.")
                || line.contains("(Foundation.") || line.contains("<Foundation.")
        }
        #expect(fromFoundation.isEmpty, "the tool's modules use Foundation: \(fromFoundation.prefix(5).map(\.1))")
        // The check itself finds such a use: Essentials' names are there, Foundation's are not.
        #expect(lines.contains { $0.contains("FoundationEssentials.") })
    }
}
