import CCurl

/// One HTTP request and its whole answer, made with libcurl (the library git uses for HTTP),
/// which is loaded the first time a request is made: the tool starts without it and the
/// twenty-odd libraries it brings, and a machine without libcurl only loses what needs one
/// (assets on an LFS server), with a line saying what to install.
///
/// Redirects are followed to HTTP and HTTPS only; a custom `Authorization` header is not sent
/// on to another host. Proxies and TLS roots are libcurl's (the `https_proxy` variables, the
/// system's certificates).
struct HTTPRequest {
    var method: String
    var url: String
    /// Header lines as name and value.
    var headers: [(name: String, value: String)] = []
    /// The body to send, or nil.
    var body: [UInt8]? = nil
    /// A file to send as the body instead, or nil.
    var uploading: String? = nil
    /// The longest wait, in seconds, to connect and for any byte either way: a slow transfer
    /// that keeps moving is never cut short.
    var timeout: Double

    /// Why no answer came, in one line: libcurl missing, a file that cannot be read, or what
    /// libcurl said (a refused connection, a timeout, a certificate).
    struct Failure: Error {
        let reason: String
    }

    /// Sends the request and waits for the answer: its status and body.
    func send() -> Result<(status: Int, body: [UInt8]), Failure> {
        let lines = headers.map { line in
            let text = Array("\(line.name): \(line.value)".utf8CString)
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
                                timeout_seconds: max(1, Int(timeout.rounded(.up))))
                            return withUnsafeMutablePointer(to: &received) { context in
                                ccurl_perform(&request, { bytes, size, context in
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
        guard outcome == 0 else {
            return .failure(Failure(reason: String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
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
