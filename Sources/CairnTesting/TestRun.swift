import CairnCore
import CairnMerge
import CairnSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Scenario files and golden case folders found under the paths given, run one by one;
/// a case that fails — bad input included — never stops the others.
///
/// Discovery: a file is a scenario file (JSON); a folder holding `schema.json` is a golden
/// case; any other folder is searched, in name order, for both: every golden case folder
/// below it and every `*.json` file outside them, leaving out names starting with `.`,
/// schema sets (folders holding `*.schema.json` files) and `*.schema.json` files.
public struct TestRun: Sendable {
    /// What a path holds.
    public enum Source: Sendable, Hashable {
        case scenarioFile(String)
        case goldenCase(String)
        /// A path that does not exist or holds no case: a failure of its own.
        case nothing(String, reason: String)
    }

    /// How scenarios' schema sets are found.
    public var resolver: SchemaSetResolver

    public init(resolver: SchemaSetResolver = .besideFile) {
        self.resolver = resolver
    }

    /// The cases under `paths`, in order.
    public static func sources(_ paths: [String]) -> [Source] {
        paths.flatMap { path -> [Source] in
            guard let kind = (try? Syscalls.status(of: path, followingLinks: true).get())?.kind else {
                return [.nothing(path, reason: "no such file or folder")]
            }
            guard kind == .folder else { return [.scenarioFile(path)] }
            let found = search(path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path)
            return found.isEmpty
                ? [.nothing(path, reason: "holds no scenario file (*.json) and no golden case folder (with schema.json)")] : found
        }
    }

    private static func search(_ folder: String) -> [Source] {
        if GoldenCase.isCase(folder) { return [.goldenCase(folder)] }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }
        if names.contains(where: { $0.hasSuffix(".schema.json") }) { return [] }
        var found: [Source] = []
        for name in names.sorted() {
            let path = folder + "/" + name
            if (try? Syscalls.status(of: path, followingLinks: true).get())?.kind == .folder {
                found += search(path)
            } else if name.hasSuffix(".json") {
                found.append(.scenarioFile(path))
            }
        }
        return found
    }

    /// Runs every case under `paths`, telling `report` of each as it ends.
    public func run(_ paths: [String], report: (CaseResult) -> Void = { _ in }) -> [CaseResult] {
        var results: [CaseResult] = []
        for source in Self.sources(paths) {
            for result in run(source, report: report) { results.append(result) }
        }
        return results
    }

    /// Runs the cases of one source.
    public func run(_ source: Source, report: (CaseResult) -> Void = { _ in }) -> [CaseResult] {
        var results: [CaseResult] = []
        func record(_ result: CaseResult) {
            results.append(result)
            report(result)
        }
        switch source {
        case .nothing(let path, let reason):
            record(CaseResult(name: path, file: path, kind: .scenario, failure: StoryFailure(reason, file: path), seconds: 0))
        case .goldenCase(let folder):
            let golden = GoldenCase(folder: folder)
            let started = Date()
            let failure: StoryFailure?
            do {
                try golden.run()
                failure = nil
            } catch {
                failure = error
            }
            record(CaseResult(name: golden.name, file: folder, kind: .golden, failure: failure, seconds: Date().timeIntervalSince(started)))
        case .scenarioFile(let file):
            for (name, scenario) in Scenario.read(file: file) {
                let started = Date()
                var failure: StoryFailure?
                switch scenario {
                case .failure(let error):
                    failure = error
                case .success(let scenario):
                    do {
                        try scenario.run(resolve: resolver)
                    } catch {
                        failure = error
                    }
                }
                record(CaseResult(name: name, file: file, kind: .scenario, failure: failure, seconds: Date().timeIntervalSince(started)))
            }
        }
        return results
    }
}
