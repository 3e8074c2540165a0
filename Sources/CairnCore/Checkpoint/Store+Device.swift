import Git

extension Store {
    /// The trailer that names the store copy (the device) a checkpoint was made on:
    /// `Cairn-Device: 5f0c9e2a7b41`.
    static let deviceTrailer = "Cairn-Device"

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

    /// `message` with the device trailer as its last line: in the message's closing trailer
    /// paragraph when it has one (`Cairn-Imported: …`), else in a paragraph of its own.
    static func withDeviceTrailer(_ message: String, device: String) -> String {
        var text = message.hasSuffix("\n") ? message : message + "\n"
        let lastLine = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        let endsWithTrailer = lastLine.hasPrefix("Cairn-") && lastLine.contains(": ")
        text += (endsWithTrailer ? "" : "\n") + "\(deviceTrailer): \(device)\n"
        return text
    }
}
