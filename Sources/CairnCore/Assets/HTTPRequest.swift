import CCurl

/// One HTTP request and its whole answer, made with libcurl (the library git uses for HTTP),
/// which is loaded the first time a request is made: the tool starts without it and the
/// twenty-odd libraries it brings, and a machine without libcurl only loses what needs one
/// (assets on an LFS server), with a line saying what to install.
///
/// Redirects are followed to HTTP and HTTPS only; a custom `Authorization` header is not sent
/// on to another host. Proxies and TLS roots are libcurl's (the `https_proxy` variables, the
/// system's certificates).
package struct HTTPRequest {
    package var method: String
    package var url: String
    /// Header lines as name and value; a name given again replaces the earlier value (names
    /// compared without case, as HTTP compares them).
    package var headers: [(name: String, value: String)] = []
    /// The body to send, or nil.
    package var body: [UInt8]? = nil
    /// A file to send as the body instead, or nil.
    package var uploading: String? = nil
    /// The longest wait, in seconds, to connect and for any byte either way: a slow transfer
    /// that keeps moving is never cut short. 0: no limit of Cairn's (libcurl's own connect
    /// timeout, 300 s, stays).
    package var timeout: Double

    package init(
        method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil,
        uploading: String? = nil, timeout: Double
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.uploading = uploading
        self.timeout = timeout
    }

    /// Why no answer came, in one line.
    package struct Failure: Error {
        package enum Kind {
            /// The transfer failed: libcurl says why (a refused connection, a timeout).
            /// Trying again later may work.
            case transfer
            /// The server's certificate is not trusted on this machine: trying again meets
            /// the same certificate.
            case certificateNotTrusted
            /// libcurl cannot be loaded on this machine, or a header cannot be sent as given:
            /// trying again changes nothing.
            case unavailable
            /// The file to send cannot be read.
            case unreadableFile
        }

        package let kind: Kind
        package let reason: String
    }

    /// The header lines to send (`Name: value`; `Name;` for an empty value, which libcurl
    /// would otherwise leave out), the last value of each name; nil with the reason when a
    /// name or value holds a line break or a name is not a token.
    func headerLines() -> Result<[String], Failure> {
        var lines: [String] = []
        var positions: [String: Int] = [:]
        for (name, value) in headers {
            let forbidden =
                name.isEmpty || name.unicodeScalars.contains { $0.value <= 32 || $0 == ":" || $0 == ";" || $0.value >= 127 }
                || value.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
            guard !forbidden else {
                return .failure(Failure(kind: .unavailable, reason: "the header \(String(reflecting: name)) cannot be sent as given"))
            }
            let line = value.isEmpty ? name + ";" : name + ": " + value
            if let position = positions[name.lowercased()] {
                lines[position] = line
            } else {
                positions[name.lowercased()] = lines.count
                lines.append(line)
            }
        }
        return .success(lines)
    }

    /// Sends the request and waits for the answer: its status and body.
    package func send() -> Result<(status: Int, body: [UInt8]), Failure> {
        let texts: [String]
        switch headerLines() {
        case .success(let found): texts = found
        case .failure(let failure): return .failure(failure)
        }
        let lines = texts.map { line in
            let text = Array(line.utf8CString)
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: text.count)
            copy.initialize(from: text, count: text.count)
            return Optional(UnsafePointer(copy))
        }
        defer { for case let line? in lines { UnsafeMutablePointer(mutating: line).deallocate() } }
        var received = Collected()
        var status = 0
        var reason = [CChar](repeating: 0, count: 512)
        let outcome = method.withCString { method in
            url.withCString { url in
                withOptionalCString(uploading) { uploading in
                    lines.withUnsafeBufferPointer { lines in
                        withOptionalBytes(body) { body in
                            var request = ccurl_request(
                                method: method, url: url, headers: lines.baseAddress, header_count: lines.count,
                                body: body?.baseAddress, body_size: body?.count ?? 0, upload_file: uploading,
                                timeout_seconds: timeout > 0 && timeout.isFinite ? Int(min(timeout, 86_400 * 365).rounded(.up)) : 0)
                            return withUnsafeMutablePointer(to: &received) { context in
                                ccurl_perform(
                                    &request,
                                    { bytes, size, context in
                                        guard let bytes, let context else { return size }
                                        context.assumingMemoryBound(to: Collected.self).pointee.bytes
                                            .append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: size))
                                        return size
                                    }, context, &status, &reason, reason.count)
                            }
                        }
                    }
                }
            }
        }
        let said = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch outcome {
        case CCURL_ANSWERED: break
        case CCURL_UNAVAILABLE: return .failure(Failure(kind: .unavailable, reason: said))
        case CCURL_UNREADABLE_FILE: return .failure(Failure(kind: .unreadableFile, reason: said))
        case CCURL_PEER_NOT_TRUSTED: return .failure(Failure(kind: .certificateNotTrusted, reason: said))
        default: return .failure(Failure(kind: .transfer, reason: said))
        }
        return .success((status, received.bytes))
    }

    /// The answer's body as it arrives.
    private struct Collected {
        var bytes: [UInt8] = []
    }
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

/// `bytes` as a pointer that is not nil whenever `bytes` is not, even when empty: an empty
/// body is still a body (a POST, not a GET).
private func withOptionalBytes<R>(_ bytes: [UInt8]?, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
    guard let bytes else { return body(nil) }
    let kept = bytes.isEmpty ? [0] : bytes
    return kept.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0.prefix(bytes.count))) }
}
