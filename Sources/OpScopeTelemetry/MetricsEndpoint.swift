import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP endpoint that serves `GET /metrics` on a TCP address, for Prometheus to scrape.
///
/// Written on the socket calls rather than on swift-nio: it answers one request per
/// connection (`Connection: close`) with a body made on demand, which is all a scrape needs,
/// and swift-nio's HTTP server would add about one and a half minutes of CPU to every clean
/// build of OpScope (measured: a package of NIOHTTP1, NIOPosix, swift-prometheus and
/// swift-metrics took 2 min 5 s of wall time, 1 min 34 s of CPU, to build in debug on this
/// 2-core machine) for every build that has the dashboard, the sanitizer builds included.
///
/// One connection at a time, on a thread of its own: a client gets 5 seconds to send its
/// request (at most 16 KiB of it), so a slow or silent one delays the next scrape at most that
/// long. Anything but `GET /metrics` is answered 404 or 405; a request that is not HTTP, 400.
public final class MetricsEndpoint: @unchecked Sendable {
    // Safety: `listener` and `wake` are set in `init` and only read after; `condition` guards
    // `stopping` and `finished`.
    /// The address served, `host:port` (the port the system chose when 0 was asked for).
    public let address: String
    /// The port served.
    public let port: Int
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let body: @Sendable () -> [UInt8]
    private let condition = NSCondition()
    private var stopping = false
    private var finished = false
    private var served = 0

    /// Serves `/metrics` at `address` (`HOST:PORT`, an IPv4 address or `localhost`; port 0 lets
    /// the system choose). `body` makes the exposition text for each scrape (on the endpoint's
    /// thread, with no lock of the endpoint's held).
    public init(address: String, body: @escaping @Sendable () -> [UInt8]) throws(MetricsEndpointError) {
        let (host, requestedPort) = try Self.parse(address)
        self.body = body
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw MetricsEndpointError("socket(): \(Self.lastError())") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(requestedPort).bigEndian
        guard inet_pton(AF_INET, host, &socketAddress.sin_addr) == 1 else {
            close(descriptor)
            throw MetricsEndpointError("'\(host)' is not an IPv4 address (use 127.0.0.1, 0.0.0.0 or localhost)")
        }
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            let reason = Self.lastError()
            close(descriptor)
            throw MetricsEndpointError("cannot serve metrics at \(address): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: actual.sin_port))
        self.address = "\(host):\(port)"
        listener = descriptor
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(descriptor)
            throw MetricsEndpointError("pipe(): \(Self.lastError())")
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wake = (pipeEnds[0], pipeEnds[1])
        let thread = Thread { [self] in serve() }
        thread.name = "opscope.metrics-http"
        thread.start()
    }

    deinit {
        stop()
    }

    /// The URL scrapes read.
    public var url: String { "http://\(address)/metrics" }

    /// Requests answered so far (any path).
    public var requestsServed: Int { condition.withLock { served } }

    /// Stops serving and closes the socket; waits for a request being answered. Safe to call
    /// more than once.
    public func stop() {
        condition.lock()
        let first = !stopping
        stopping = true
        condition.unlock()
        if first {
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
        }
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }

    // MARK: The endpoint's thread

    private func serve() {
        while true {
            var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0, errno == EINTR { continue }
            if ready < 0 || descriptors[1].revents != 0 { break }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            // Not inherited by a program the process starts while a scrape is answered.
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            answer(connection)
            // Counted before the close: a client that read to the end sees the count.
            condition.withLock { served += 1 }
            close(connection)
        }
        close(listener)
        close(wake.read)
        close(wake.write)
        condition.withLock {
            finished = true
            condition.broadcast()
        }
    }

    /// Reads one request (its head) and writes the answer.
    private func answer(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while head.count < 16_384, !Self.endsHead(head) {
            let count = read(connection, &chunk, chunk.count)
            guard count > 0 else { return }
            head.append(contentsOf: chunk[0..<count])
        }
        let (status, contentType, bodyBytes) = Self.route(head, body: body)
        var response = Array("HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nContent-Length: \(bodyBytes.count)\r\nConnection: close\r\n\r\n".utf8)
        response.append(contentsOf: bodyBytes)
        var offset = 0
        while offset < response.count {
            let written = response[offset...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// What a request head gets: the status line's end, the content type and the body.
    static func route(_ head: [UInt8], body: () -> [UInt8]) -> (String, String, [UInt8]) {
        let text = String(decoding: head, as: UTF8.self)
        let requestLine = text.split(separator: "\r\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = requestLine.split(separator: " ")
        guard endsHead(head), parts.count == 3, parts[2].hasPrefix("HTTP/1.") else {
            return ("400 Bad Request", "text/plain; charset=utf-8", Array("not an HTTP/1 request\n".utf8))
        }
        let path = parts[1].split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        guard path == "/metrics" else {
            return ("404 Not Found", "text/plain; charset=utf-8", Array("OpScope serves its metrics at /metrics\n".utf8))
        }
        guard parts[0] == "GET" || parts[0] == "HEAD" else {
            return ("405 Method Not Allowed", "text/plain; charset=utf-8", Array("/metrics answers GET\n".utf8))
        }
        let bytes = body()
        return ("200 OK", "text/plain; version=0.0.4; charset=utf-8", parts[0] == "HEAD" ? [] : bytes)
    }

    private static func endsHead(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        let end = bytes.count
        // Scanned whole: the head may arrive in pieces, the blank line in the last one.
        for index in 0...(end - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return true
        }
        return false
    }

    /// `HOST:PORT`, with `localhost` read as 127.0.0.1.
    static func parse(_ address: String) throws(MetricsEndpointError) -> (host: String, port: Int) {
        guard let colon = address.lastIndex(of: ":") else {
            throw MetricsEndpointError("'\(address)' is not HOST:PORT (e.g. 127.0.0.1:9464)")
        }
        let host = String(address[..<colon])
        guard let port = Int(address[address.index(after: colon)...]), (0...65_535).contains(port) else {
            throw MetricsEndpointError("'\(address)' has no port from 0 to 65535 (e.g. 127.0.0.1:9464)")
        }
        return (host == "localhost" || host.isEmpty ? "127.0.0.1" : host, port)
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// Why the metrics endpoint could not start.
public struct MetricsEndpointError: Error, CustomStringConvertible, Sendable, Equatable {
    /// One line saying what went wrong.
    public let message: String

    init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
