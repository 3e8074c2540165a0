import ArgumentParser
import CairnCore
import CairnMerge
import Foundation

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the checkpoints of the store, or those that changed one document.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A document path: only the checkpoints that changed it.")
    var path: String?

    @Option(name: [.customShort("n"), .long], help: "Show at most this many checkpoints.")
    var limit: Int?

    func run() throws {
        let document = try path.map { try DocumentPath.parsing($0) }
        let store = try global.openStore()
        for entry in try store.history(of: document, limit: limit) {
            let date = Date(timeIntervalSince1970: TimeInterval(entry.commit.committer.time))
            var line = "\(entry.commit.id.short) \(Self.format(date))"
            if let change = entry.change {
                line += " " + change.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            }
            print(line + " " + entry.commit.summary)
        }
    }

    static func format(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))Z"
    }
}
