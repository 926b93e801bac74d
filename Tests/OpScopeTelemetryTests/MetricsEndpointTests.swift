import Foundation
import OpScopeTelemetry
import OpScopeTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `/metrics` over HTTP as Prometheus reads it, and what anything else gets.
@Suite("Telemetry: the /metrics endpoint")
struct MetricsEndpointTests {
    @Test("GET /metrics answers 200 with the exposition; HEAD without a body; other paths 404, other methods 405, not HTTP 400")
    func routes() throws {
        let endpoint = try MetricsEndpoint(address: "127.0.0.1:0") { Array("up 1\n".utf8) }
        defer { endpoint.stop() }
        #expect(endpoint.port > 0)
        let ok = try HTTP.request("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", port: endpoint.port)
        #expect(ok.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(ok.contains("Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"))
        #expect(ok.hasSuffix("\r\n\r\nup 1\n"))
        #expect(ok.contains("Content-Length: 5\r\n"))
        let head = try HTTP.request("HEAD /metrics HTTP/1.1\r\n\r\n", port: endpoint.port)
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n") && head.hasSuffix("\r\n\r\n"))
        #expect(try HTTP.request("GET / HTTP/1.1\r\n\r\n", port: endpoint.port).hasPrefix("HTTP/1.1 404 "))
        #expect(try HTTP.request("POST /metrics HTTP/1.1\r\n\r\n", port: endpoint.port).hasPrefix("HTTP/1.1 405 "))
        #expect(try HTTP.request("hello\r\n\r\n", port: endpoint.port).hasPrefix("HTTP/1.1 400 "))
        // A request in pieces is read whole.
        #expect(try HTTP.request("GET /metrics?x=1 HTTP/1.0\r\n", "Host: y\r\n\r\n", port: endpoint.port).hasPrefix("HTTP/1.1 200 "))
        #expect(endpoint.requestsServed == 6)
    }

    @Test("a bad address is refused with a message naming it; a port in use says so")
    func badAddresses() throws {
        #expect(throws: MetricsEndpointError.self) { try MetricsEndpoint(address: "9464") { [] } }
        do {
            _ = try MetricsEndpoint(address: "127.0.0.1:99999") { [] }
            Issue.record("a port above 65535 was taken")
        } catch {
            #expect(error.message == "'127.0.0.1:99999' has no port from 0 to 65535 (e.g. 127.0.0.1:9464)")
        }
        do {
            _ = try MetricsEndpoint(address: "example.org:9464") { [] }
            Issue.record("a host name was taken")
        } catch {
            #expect(error.message == "'example.org' is not an IPv4 address (use 127.0.0.1, 0.0.0.0 or localhost)")
        }
        let first = try MetricsEndpoint(address: "localhost:0") { [] }
        defer { first.stop() }
        #expect(first.address == "127.0.0.1:\(first.port)")
        do {
            _ = try MetricsEndpoint(address: first.address) { [] }
            Issue.record("a port in use was taken twice")
        } catch {
            #expect(error.message == "cannot serve metrics at \(first.address): Address already in use")
        }
    }

    @Test("a served source: each scrape reads the present, and promtool finds nothing to fault")
    func servedSource() throws {
        var script = EventScript()
        script.queue(1, "downloads", max: 2)
        script.add(1, queue: 1, "a")
        script.start(1)
        let source = ScriptedSource(script)
        let server = try MetricsServer(source: source, address: "127.0.0.1:0")
        defer { server.stop() }
        let first = try HTTP.body(HTTP.request("GET /metrics HTTP/1.1\r\n\r\n", port: server.endpoint.port))
        #expect(first.contains("opscope_queue_operations{queue=\"downloads\",queue_id=\"1\",state=\"executing\"} 1"))
        var more = EventScript()
        more.time = source.now()
        more.finish(1)
        source.append(more)
        let second = try HTTP.body(HTTP.request("GET /metrics HTTP/1.1\r\n\r\n", port: server.endpoint.port))
        #expect(second.contains("opscope_queue_operations_finished_total{queue=\"downloads\",queue_id=\"1\"} 1"))
        let promtool = try #require(Promtool.path, "promtool is needed (Debian's prometheus package: apt-get install prometheus)")
        let check = try Promtool.checkMetrics(second, promtool: promtool)
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.isEmpty, "\(check.output)")
    }
}

/// A raw HTTP exchange on loopback: what was sent, byte for byte, and all that came back.
enum HTTP {
    static func request(_ pieces: String..., port: Int) throws -> String {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HTTPError.system("socket") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw HTTPError.system("connect") }
        for piece in pieces {
            let bytes = Array(piece.utf8)
            guard write(descriptor, bytes, bytes.count) == bytes.count else { throw HTTPError.system("write") }
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            response.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: response, as: UTF8.self)
    }

    static func body(_ response: String) -> String {
        guard let range = response.range(of: "\r\n\r\n") else { return "" }
        return String(response[range.upperBound...])
    }

    enum HTTPError: Error { case system(String) }
}

/// Debian's `promtool`, the Prometheus project's own checker of the text format.
enum Promtool {
    static var path: String? {
        ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `promtool check metrics` of `text` (its standard input): its status and what it said.
    static func checkMetrics(_ text: String, promtool: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: promtool)
        process.arguments = ["check", "metrics"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let said = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: said, as: UTF8.self))
    }
}
