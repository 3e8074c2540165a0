import NIOCore
import NIOHTTP1

/// The HTTP rules a request must meet before any page is drawn, checked on the request as it
/// came off the wire (its version, its request line and every `Host` line, which the typed
/// request a handler sees no longer shows):
///
/// - HTTP/1.1 only (RFC 9112 §2.3): an HTTP/1.0 request may carry no `Host` at all;
/// - the target in origin form, `/path` (§3.2.1): a target in absolute form (`GET
///   http://host/…`) is what proxies take, and its authority would stand in for `Host`
///   (§3.2.2); nothing here is a proxy;
/// - exactly one `Host` line, holding `host[:port]` and nothing else — no path, no userinfo
///   (§3.2; RFC 3986 §3.2.2);
/// - headers within the decoder's limits.
///
/// A request that breaks one gets 400 (one line saying which rule), a `Host` that is
/// well-formed but names another server gets 421 (a page elsewhere reaching this one
/// through a name that resolves here: DNS rebinding), and the connection is closed. The
/// refusal waits for the responses of the requests before it on the connection, so answers
/// keep their order.
final class RequestGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The names the server answers to, at its port.
    static let names = ["127.0.0.1", "localhost"]

    /// Requests passed on whose responses have not ended yet.
    private var unanswered = 0
    /// The refusal to send once those are answered; set, everything read is dropped.
    private var refusal: (status: HTTPResponseStatus, reason: String)?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard refusal == nil else { return }
        let part = unwrapInboundIn(data)
        if case .head(let head) = part {
            if let (status, reason) = Self.refusal(of: head, port: context.channel.localAddress?.port) {
                refuse(context: context, status: status, reason: reason)
                return
            }
            unanswered += 1
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        context.write(data, promise: promise)
        if case .end = part {
            unanswered -= 1
            if unanswered == 0, refusal != nil { sendRefusal(context: context) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // What the decoder cannot read (headers past its limits, a malformed request line).
        guard error is HTTPParserError, refusal == nil else {
            context.fireErrorCaught(error)
            return
        }
        let reason =
            if case .headerOverflow = error as? HTTPParserError {
                "the request's headers are larger than this server reads"
            } else {
                "the request is not well-formed HTTP/1.1"
            }
        refuse(context: context, status: .badRequest, reason: reason)
    }

    private func refuse(context: ChannelHandlerContext, status: HTTPResponseStatus, reason: String) {
        refusal = (status, reason)
        if unanswered == 0 { sendRefusal(context: context) }
    }

    private func sendRefusal(context: ChannelHandlerContext) {
        guard let (status, reason) = refusal else { return }
        var headers = HTTPHeaders()
        for (name, value) in HistoryServer.commonHeaders(type: "text/plain; charset=utf-8") { headers.add(name: name, value: value) }
        headers.add(name: "Connection", value: "close")
        let body = context.channel.allocator.buffer(string: reason + "\n")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Why `head` is refused, with the status; nil when it meets the rules. `port` is the
    /// port the server listens on.
    static func refusal(of head: HTTPRequestHead, port: Int?) -> (HTTPResponseStatus, String)? {
        guard head.version == .http1_1 else {
            return (.badRequest, "this server speaks HTTP/1.1 only")
        }
        guard head.uri.hasPrefix("/") else {
            return (.badRequest, "the request target must be a path (origin form): this server is not a proxy")
        }
        let hosts = head.headers["Host"]
        guard hosts.count == 1, let host = hosts.first else {
            return (
                .badRequest,
                hosts.isEmpty ? "the request has no Host header" : "the request has \(hosts.count) Host headers; it must have one"
            )
        }
        guard isAuthority(host) else {
            return (.badRequest, "the Host header must hold a host and a port, and nothing else")
        }
        guard let port, names.contains(where: { host.lowercased() == "\($0):\(port)" }) else {
            return (.misdirectedRequest, HistoryServer.misdirected)
        }
        return nil
    }

    /// Whether `text` is `host[:port]` as a `Host` header holds it (RFC 3986 §3.2.2, §3.2.3):
    /// a name of unreserved characters, percent-encodings and sub-delimiters, or an IP literal
    /// in brackets, then an optional port of digits — no userinfo, path, query or fragment.
    static func isAuthority(_ text: String) -> Bool {
        var host = Substring(text)
        var port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return false }
            port = rest.isEmpty ? nil : rest.dropFirst()
            let literal = host[host.index(after: host.startIndex)..<close]
            guard !literal.isEmpty, literal.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
        } else {
            if let colon = host.lastIndex(of: ":") {
                port = host[host.index(after: colon)...]
                host = host[..<colon]
            }
            guard !host.isEmpty, host.unicodeScalars.allSatisfy({ $0.isASCII && allowedInName.contains(Character($0)) }) else {
                return false
            }
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        }
        return true
    }

    /// The characters of a registered name: unreserved, `%` of a percent-encoding, and the
    /// sub-delimiters.
    private static let allowedInName = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~%!$&'()*+,;=")
}
