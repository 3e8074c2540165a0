import CairnMerge

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A test run as JUnit XML, the format CI systems read (Jenkins, GitLab, GitHub Actions'
/// report actions): `testsuites` with the totals, one `testsuite` per scenario file or per
/// folder of golden cases, one `testcase` per case, and a `failure` (its `message` the first
/// line, its text the whole failure with the differences) for each that failed.
public struct JUnitReport: Sendable {
    public var results: [CaseResult]
    /// When the run started, for the suites' `timestamp`.
    public var started: Date

    public init(results: [CaseResult], started: Date) {
        self.results = results
        self.started = started
    }

    /// The suite of a case: its scenario file, or the folder holding a golden case.
    static func suite(of result: CaseResult) -> String {
        guard result.kind == .golden else { return result.file }
        guard let slash = result.file.lastIndex(of: "/") else { return "." }
        return String(result.file[..<slash])
    }

    /// The `classname` of a suite's cases: its path without `.json`, folders joined by dots
    /// (`examples.life-in-uk.scenarios.clock-ahead`), which report viewers split into a
    /// package and a class at the last dot.
    static func className(of suite: String) -> String {
        var name = suite.hasSuffix(".json") ? String(suite.dropLast(5)) : suite
        while name.hasPrefix("./") { name.removeFirst(2) }
        while name.hasPrefix("/") { name.removeFirst() }
        return name.replacing(".", with: "_").replacing("/", with: ".")
    }

    public var xml: String {
        var suites: [(name: String, cases: [CaseResult])] = []
        for result in results {
            let name = Self.suite(of: result)
            if let index = suites.firstIndex(where: { $0.name == name }) {
                suites[index].cases.append(result)
            } else {
                suites.append((name, [result]))
            }
        }
        let timestamp = ISO8601Stamp.text(seconds: Int64(started.timeIntervalSince1970.rounded(.down)))
        func time(_ seconds: Double) -> String {
            guard seconds.isFinite else { return "0.000" }
            let milliseconds = Int64((min(max(seconds, 0), 1e9) * 1_000).rounded())
            let fraction = String(milliseconds % 1_000)
            return "\(milliseconds / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
        }
        let failures = results.filter { !$0.passed }.count
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        text +=
            #"<testsuites name="cairn test" tests="\#(results.count)" failures="\#(failures)" errors="0" time="\#(time(results.map(\.seconds).reduce(0, +)))">"#
            + "\n"
        for (index, suite) in suites.enumerated() {
            let failed = suite.cases.filter { !$0.passed }.count
            text +=
                #"  <testsuite name="\#(Self.escape(suite.name))" id="\#(index)" tests="\#(suite.cases.count)" failures="\#(failed)" errors="0" skipped="0" time="\#(time(suite.cases.map(\.seconds).reduce(0, +)))" timestamp="\#(timestamp)">"#
                + "\n"
            for result in suite.cases {
                let opening =
                    #"    <testcase name="\#(Self.escape(result.name))" classname="\#(Self.escape(Self.className(of: suite.name)))" time="\#(time(result.seconds))""#
                guard let failure = result.failure else {
                    text += opening + "/>\n"
                    continue
                }
                text += opening + ">\n"
                text +=
                    #"      <failure message="\#(Self.escape(failure.summary))" type="\#(result.kind == .golden ? "GoldenCaseFailure" : "ScenarioFailure")">"#
                text += Self.escape(failure.description) + "</failure>\n"
                text += "    </testcase>\n"
            }
            text += "  </testsuite>\n"
        }
        return text + "</testsuites>\n"
    }

    /// Text for an attribute or an element: the five special characters as entities, tabs
    /// and line ends as character references (so attributes keep them), and the characters
    /// XML 1.0 cannot carry at all as U+FFFD.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\n": escaped += "&#10;"
            case "\r": escaped += "&#13;"
            case "\t": escaped += "&#9;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                escaped += "\u{FFFD}"
            default:
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
