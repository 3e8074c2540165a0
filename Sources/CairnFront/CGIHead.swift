import HTTPTypes

/// The head of a CGI program's answer (RFC 3875 §6): header lines up to an empty line, of
/// which `Status: 404 Not Found` gives the status (200 without it) and the others are the
/// response's headers.
struct CGIHead: Sendable {
    var status: Int
    var fields: HTTPFields

    /// Reads the head from the start of `output`; the head and where the body starts, or nil
    /// while the empty line has not come yet. A line without a colon is passed over.
    static func read(_ output: [UInt8]) -> (head: CGIHead, bodyStart: Int)? {
        var lineStart = 0
        var status = 200
        var fields = HTTPFields()
        var index = 0
        while index < output.count {
            guard output[index] == UInt8(ascii: "\n") else {
                index += 1
                continue
            }
            var line = output[lineStart..<index]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.isEmpty { return (CGIHead(status: status, fields: fields), index + 1) }
            if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                let name = String(decoding: line[..<colon], as: UTF8.self)
                let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces
                if name.lowercased() == "status" {
                    status = Int(value.prefix { $0.isNumber }) ?? 500
                } else if let field = HTTPField.Name(name) {
                    fields.append(HTTPField(name: field, value: value))
                }
            }
            index += 1
            lineStart = index
        }
        return nil
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
