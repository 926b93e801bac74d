import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Ten served demos scraped by a real Prometheus server (Debian's `prometheus`, on loopback):
/// all ten are up, and PromQL over OpScope's queue gauge, wait histogram and stuck gauge, summed
/// over the fleet, gives what the programs' own reports give.
@Suite("Terminal: a fleet scraped by Prometheus", .serialized, .timeLimit(.minutes(3)))
struct FleetTerminalTests {
    @Test("ten served stuck demos: count(up == 1) is 10, and the fleet's sums are the reports' sums")
    func tenProgramsScraped() throws {
        let prometheusPath = try #require(["/usr/bin/prometheus", "/usr/local/bin/prometheus"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }, "the Prometheus server is needed (Debian's prometheus package: apt-get install prometheus)")
        let directory = try Fleet.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var children: [Process] = []
        defer {
            for child in children where child.isRunning { child.terminate() }
            for child in children { child.waitUntilExit() }
        }
        // Slowed down twentyfold: a stuck demo's refresh-N starts every 20 s, so its numbers hold
        // still for the seconds a comparison takes (and the comparison is tried again if not).
        var targets: [String] = []
        var sockets: [String] = []
        for index in 0..<10 {
            let socket = "\(directory)/demo-\(index).sock"
            let output = "\(directory)/demo-\(index).out"
            children.append(try Fleet.start(Tmux.opscope, ["demo", "stuck", "--serve", "--speed", "0.05", "--socket", socket,
                                                           "--metrics", "127.0.0.1:0"], output: output))
            sockets.append(socket)
            let line = try Fleet.await("the metrics line of demo \(index)") {
                (try? String(contentsOfFile: output, encoding: .utf8))?.split(separator: "\n")
                    .first { $0.hasPrefix("metrics for Prometheus at http://") }
            }
            let url = line.dropFirst("metrics for Prometheus at http://".count)
            targets.append(String(url.prefix { $0 != "/" }))
        }
        let port = try Fleet.freePort()
        let configuration = """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            scrape_configs:
              - job_name: opscope
                static_configs:
                  - targets: [\(targets.map { "\"\($0)\"" }.joined(separator: ", "))]
            """
        try configuration.write(toFile: "\(directory)/prometheus.yml", atomically: true, encoding: .utf8)
        children.append(try Fleet.start(prometheusPath, ["--config.file=\(directory)/prometheus.yml",
                                                        "--storage.tsdb.path=\(directory)/data",
                                                        "--web.listen-address=127.0.0.1:\(port)"],
                                        output: "\(directory)/prometheus.out"))
        let api = Fleet.PrometheusAPI(port: port)
        let up = try Fleet.await("Prometheus to scrape all ten") { try? api.value("count(up == 1)") == 10 ? true : nil }
        #expect(up)

        // The reports, Prometheus's sums, the reports again: when the reports held still across
        // a scrape, Prometheus's latest samples are theirs.
        var compared = false
        for _ in 0..<8 where !compared {
            let before = try sockets.map(Fleet.report)
            let since = Date().timeIntervalSince1970
            _ = try Fleet.await("a scrape after the reports") { try? api.value("min(timestamp(up))").map { $0 > since ? true : nil } ?? nil }
            let queueOperations = try api.vector("sum by (queue) (opscope_queue_operations)", by: "queue")
            let waits = try api.vector("sum by (queue) (opscope_operation_wait_seconds_count)", by: "queue")
            let cycle = try api.value("sum(opscope_stuck_operations{cause=\"cycle\"})")
            let suspended = try api.value("sum(opscope_stuck_operations{cause=\"queueSuspended\"})")
            let after = try sockets.map(Fleet.report)
            guard before == after else { continue }
            compared = true
            let reports = after
            for queue in ["work", "paused"] {
                let unfinished = reports.reduce(0) { $0 + ($1.queues[queue]?.unfinished ?? 0) }
                let started = reports.reduce(0) { $0 + ($1.queues[queue]?.waitCount ?? 0) }
                #expect(queueOperations[queue] == Double(unfinished), "\(queue): \(queueOperations) against \(unfinished)")
                #expect(waits[queue] == Double(started), "\(queue): \(waits) against \(started)")
            }
            #expect(cycle == Double(reports.reduce(0) { $0 + $1.cycleDiagnoses }))
            #expect(cycle == 20, "two in a cycle in each of ten programs")
            #expect(suspended == 30, "three thumbnails on the suspended queue in each of ten programs")
        }
        #expect(compared, "the programs' reports never held still across a scrape")
    }
}

/// The pieces of a fleet test: processes, waits on what they print, their reports, Prometheus's API.
enum Fleet {
    static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/opscope-fleet-XXXXXX".utf8CString)
        guard let path = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) }) else {
            throw FleetError("mkdtemp failed")
        }
        return path
    }

    /// Starts a program, its output (both streams) into a file.
    static func start(_ executable: String, _ arguments: [String], output: String) throws -> Process {
        FileManager.default.createFile(atPath: output, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Polls `condition` until it gives a value, for at most `timeout` seconds (a minute: a busy
    /// machine starts ten debug programs slowly); fails naming `what`.
    static func await<T>(_ what: String, timeout: Double = 60, _ condition: () throws -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let value = try condition() { return value }
            usleep(100_000)
        }
        throw FleetError("timed out waiting for \(what)")
    }

    /// A port nobody listens on now.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw FleetError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// What the fleet test compares of one program's report.
    struct Report: Equatable {
        struct Queue: Equatable {
            var unfinished: Int
            var waitCount: Int
        }
        var queues: [String: Queue]
        var cycleDiagnoses: Int
    }

    /// `opscope report --attach SOCKET --json`, the parts the test compares.
    static func report(_ socket: String) throws -> Report {
        let result = ChildProcess.run([Tmux.opscope, "report", "--attach", socket, "--json"], timeout: 30)
        guard let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
              let queues = object["queues"] as? [[String: Any]], let diagnoses = object["diagnoses"] as? [[String: Any]] else {
            throw FleetError("no report from \(socket): \(result.output)")
        }
        var byName: [String: Report.Queue] = [:]
        for queue in queues {
            guard let name = queue["name"] as? String else { continue }
            // The report's `pending` counts every unstarted operation (ready ones too).
            let unfinished = ["executing", "pending"].reduce(0) { $0 + ((queue[$1] as? Int) ?? 0) }
            let wait = (queue["wait"] as? [String: Any])?["count"] as? Int ?? 0
            byName[name] = Report.Queue(unfinished: unfinished, waitCount: wait)
        }
        return Report(queues: byName, cycleDiagnoses: diagnoses.filter { $0["kind"] as? String == "cycle" }.count)
    }

    /// Prometheus's HTTP API on loopback.
    struct PrometheusAPI {
        let port: Int

        /// The instant query's result vector.
        func result(_ query: String) throws -> [[String: Any]] {
            let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
            let response = ChildProcess.run(["curl", "-s", "http://127.0.0.1:\(port)/api/v1/query?query=\(encoded)"], timeout: 10)
            guard let object = try? JSONSerialization.jsonObject(with: Data(response.output.utf8)) as? [String: Any],
                  object["status"] as? String == "success", let data = object["data"] as? [String: Any],
                  let result = data["result"] as? [[String: Any]] else {
                throw FleetError("Prometheus did not answer \(query): \(response.output)")
            }
            return result
        }

        /// A query's single value (nil when the result is empty).
        func value(_ query: String) throws -> Double? {
            guard let first = try result(query).first, let pair = first["value"] as? [Any], pair.count == 2,
                  let text = pair[1] as? String else { return nil }
            return Double(text)
        }

        /// A query's values by one label.
        func vector(_ query: String, by label: String) throws -> [String: Double] {
            var values: [String: Double] = [:]
            for sample in try result(query) {
                guard let metric = sample["metric"] as? [String: String], let key = metric[label],
                      let pair = sample["value"] as? [Any], pair.count == 2, let text = pair[1] as? String else { continue }
                values[key] = Double(text)
            }
            return values
        }
    }

    struct FleetError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
