import CairnSystem
import Git

extension Store {
    /// The trailer that names the store copy (the device) a checkpoint was made on:
    /// `Cairn-Device: 5f0c9e2a7b41`.
    static let deviceTrailer = "Cairn-Device"

    /// The trailer that names the device as people know it: `Cairn-Device-Name: phone`.
    static let deviceNameTrailer = "Cairn-Device-Name"

    /// The name this device's commits record: the configuration's, else the store's
    /// `cairn.deviceName` setting, else the machine's host name (`unknown` without one).
    /// Control characters, which would break the message's trailer, become spaces.
    public func deviceName() -> String {
        let configured = configuration.deviceName ?? ((try? repository.config("cairn.deviceName")) ?? nil)
        let name = configured.flatMap { $0.isEmpty ? nil : $0 } ?? Syscalls.hostName() ?? "unknown"
        let cleaned = String(name.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        let trimmed = cleaned.trimmedOfSpaces
        return trimmed.isEmpty ? "unknown" : String(trimmed)
    }

    /// `message` with this device's trailers (its ID and its name) at its end: what every
    /// commit a device makes of its own carries.
    func withDeviceTrailers(_ message: String) throws -> String {
        Self.withDeviceTrailer(message, device: try deviceID(), name: deviceName())
    }

    /// The store copy's own random ID, made when it was created or cloned (`cairn.device` in
    /// its git config; made now for a store from before it existed). It keeps the checkpoints
    /// of two devices apart: two devices making the same change to the same checkpoint in the
    /// same second would otherwise make the same commit, byte for byte — one commit, so a
    /// `counter` raised on both would be raised once.
    func deviceID() throws -> String {
        if let id = try repository.config("cairn.device"), !id.isEmpty { return id }
        let id = Self.newDeviceID()
        try repository.setConfig("cairn.device", to: id)
        return id
    }

    /// Twelve random hexadecimal digits.
    static func newDeviceID() -> String {
        var generator = SystemRandomNumberGenerator()
        let bits = generator.next() & 0xFFFF_FFFF_FFFF
        let hex = String(bits, radix: 16)
        return String(repeating: "0", count: 12 - hex.count) + hex
    }

    /// `message` with the device trailers as its last lines (`Cairn-Device: <id>`, then
    /// `Cairn-Device-Name: <name>` when a name is given): in the message's closing trailer
    /// paragraph when it has one (`Cairn-Imported: …`), else in a paragraph of its own.
    static func withDeviceTrailer(_ message: String, device: String, name: String? = nil) -> String {
        var text = message.hasSuffix("\n") ? message : message + "\n"
        let lastLine = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        let endsWithTrailer = lastLine.hasPrefix("Cairn-") && lastLine.contains(": ")
        text += (endsWithTrailer ? "" : "\n") + "\(deviceTrailer): \(device)\n"
        if let name { text += "\(deviceNameTrailer): \(name)\n" }
        return text
    }

    /// The value of the last `key: value` trailer line of `message`, or nil.
    static func trailer(_ key: String, in message: String) -> String? {
        let prefix = key + ": "
        return message.split(separator: "\n").last { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }
}
