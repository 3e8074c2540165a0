import CSQLite
import Foundation

/// What the figures were measured on: they mean little without it.
struct Machine {
    var date: String
    var processor: String
    var cores: Int
    var memoryGiB: Int
    var system: String
    var fileSystem: String
    var versions: [String]

    /// Describes this machine, the folder the stores live in, and the peers' versions.
    static func current(workFolder: String, git: String) -> Machine {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) } ?? "unknown processor"
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let system =
            release.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { String($0.dropFirst("PRETTY_NAME=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } ?? "Linux"
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        var fileSystem = "unknown"
        var longest = 0
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 2 else { continue }
            let point = String(fields[1])
            if workFolder == point || workFolder.hasPrefix(point == "/" ? "/" : point + "/"), point.count > longest {
                longest = point.count
                fileSystem = "\(fields[2]) (\(point))"
            }
        }
        let gitVersion = (try? Command(git, ["--version"]).run())?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "git ?"
        let libgit2 =
            (try? Command("/usr/bin/pkg-config", ["--modversion", "libgit2"]).run())?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        return Machine(
            date: formatter.string(from: Date()) + " UTC",
            processor: model,
            cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryGiB: Int((Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824).rounded()),
            system: system,
            fileSystem: fileSystem,
            versions: [gitVersion, "SQLite \(String(cString: sqlite3_libversion()))", "libgit2 \(libgit2)"])
    }

    var lines: [String] {
        [
            "Measured \(date) on \(processor), \(cores) cores, \(memoryGiB) GiB, \(system).",
            "Stores on \(fileSystem). \(versions.joined(separator: ", ")).",
        ]
    }
}
