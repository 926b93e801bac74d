import DashboardModel
import Foundation
import GraphExport
import OpScope
import OpScopeTestSupport
import OperationBridge
import OperationEvents
import Testing

/// Issue 17, hostile text in every export: names holding terminal escapes, control characters,
/// what invalid UTF-8 becomes in a Swift string, bidirectional controls, wide and combining text,
/// emoji and 10 kB stay valid and round-trip through the JSON report (both writers), a
/// recording, its Perfetto trace, DOT (graphviz parses it) and Mermaid.
@Suite("Reliability: hostile names in every export", .serialized, .timeLimit(.minutes(5)))
struct HostileExportTests {
    /// What a program may name its operations. Swift strings hold only Unicode scalars: invalid
    /// UTF-8 arrives as U+FFFD, and lone surrogates cannot occur; noncharacters, private use,
    /// C1 controls and line separators can.
    static let names: [String] = [
        "\u{1B}]0;pwned\u{07}title",
        "\u{1B}[2Jwipe\u{1B}[H",
        "\u{1B}]52;c;aGVsbG8=\u{07}clip",
        "\u{1B}P+q\u{1B}\\dcs \u{9B}31m c1-csi \u{9D}0;osc\u{9C}",
        "ctl\u{0}\u{1}\u{7}\u{8}\t\r\n\u{7F}\u{85}end",
        String(decoding: [0x62, 0x61, 0x64, 0xC3, 0x28, 0xFF, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80] as [UInt8], as: UTF8.self),
        "non\u{FFFE}char\u{FFFF}\u{10FFFF} private\u{E000}",
        "abc\u{202E}fed\u{2066}iso\u{2069}\u{200F}rlm\u{202A}lre\u{202C}",
        "line\u{2028}sep\u{2029}para",
        "画像の読み込み",
        "🚀 launch 👨‍👩‍👧 🏳️‍🌈",
        "cafe\u{301} ni\u{303}o Z\u{337}\u{322}\u{348}a\u{336}l\u{335}g\u{338}o",
        "quote \" back\\slash \\\" end\\",
        "<b>&amp; #35; `tick` [x] {y} |p| -->",
        String(repeating: "long-名前-", count: 1_200),
    ]

    static let queueName = "q \u{1B}]0;queue-title\u{07} \u{202E}rtl \"quoted\"\nsecond"

    /// One operation per name, each after the one before, in a queue with a hostile name; the
    /// first half run to the end, the rest wait.
    static func script() -> EventScript {
        var script = EventScript()
        script.queue(1, queueName, max: 1)
        for (index, name) in names.enumerated() {
            script.add(index + 1, queue: 1, name, after: index == 0 ? [] : [index])
        }
        for index in 0..<names.count / 2 {
            if index > 0 { script.ready(index + 1) }
            script.run(index + 1)
        }
        return script
    }

    @Test("the JSON report, from both writers, parses and gives every name back exactly")
    func jsonReport() throws {
        let report = Self.script().model(.report).report()
        for (writer, bytes) in [("report.json()", report.json()), ("JSONEncoder", Array(try JSONEncoder().encode(report)))] {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any], "\(writer)")
            let names = (object["operations"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(names == Self.names, "\(writer): names changed on the way")
            let queues = (object["queues"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(queues == [Self.queueName], "\(writer)")
            // Nothing raw that a terminal would obey when the JSON is printed (`opscope report --json`).
            #expect(!bytes.contains(0x1B) && !bytes.contains(0x07), "\(writer) holds raw ESC or BEL")
            let decoded = try JSONDecoder().decode(OpScopeReport.self, from: Data(bytes))
            #expect(decoded.operations.map(\.name) == Self.names, "\(writer) does not decode to the same report")
        }
    }

    @Test("a recording keeps every name, and its Perfetto trace parses and names every run")
    func recordingAndTrace() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-hostile-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hostile.jsonl").path
        let recorder = try Recorder(source: ScriptedSource(Self.script(), info: SourceInfo(kind: .live, program: Self.names[0])), path: path)
        recorder.sync()
        recorder.stop()
        #expect(recorder.failure == nil)
        let raw = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(!raw.contains(0x1B) && !raw.contains(0x07), "the recording holds raw ESC or BEL")

        let recording = try Recording.open(path: path, configuration: .report)
        let names = recording.finalModel.report().operations.map(\.name)
        #expect(names == Self.names, "names changed through the recording")
        #expect(recording.header.program == Self.names[0])

        var bytes: [UInt8] = []
        let summary = try PerfettoExport.export(recording) { bytes += $0 }
        #expect(summary.slices == Self.names.count / 2, "\(summary)")
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x07), "the trace holds raw ESC or BEL")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let events = object["traceEvents"] as? [[String: Any]] ?? []
        let sliceNames = events.filter { $0["ph"] as? String == "X" }.compactMap { $0["name"] as? String }
        for name in Self.names.prefix(Self.names.count / 2) {
            #expect(sliceNames.contains { $0.contains(name) }, "no slice names \(name.debugDescription.prefix(80))")
        }
        let tracks = events.filter { $0["ph"] as? String == "M" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(tracks.contains { $0.contains(Self.queueName) } && tracks.contains(Self.names[0]), "\(tracks.map(\.debugDescription))")
    }

    @Test("DOT: no control character left but line breaks as \\n; graphviz parses it",
          .enabled(if: Self.dotPath != nil, "graphviz's dot is not installed here (apt-get install graphviz); CI installs it"))
    func dot() throws {
        let text = GraphExport.dot(Self.script().model())
        #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" },
                "a control character reached the DOT text")
        for name in Self.names where !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            #expect(text.contains(Self.dotEscaped(name)), "\(name.debugDescription.prefix(60)) is not in the DOT text as written")
        }
        let result = try Self.run(Self.dotPath!, ["-Tsvg"], input: text)
        #expect(result.status == 0 && result.output.contains("<svg"), "dot -Tsvg: \(result.errors)")
    }

    @Test("Mermaid: every label quoted, its syntax characters as entity codes, and it reads back as the name")
    func mermaid() {
        let text = GraphExport.mermaid(Self.script().model())
        #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
        var labels: [Int: String] = [:]
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("n"), let open = trimmed.range(of: "[\""), trimmed.hasSuffix("\"]"),
                  let id = Int(trimmed[trimmed.index(after: trimmed.startIndex)..<open.lowerBound]) else { continue }
            let inside = String(trimmed[open.upperBound..<trimmed.index(trimmed.endIndex, offsetBy: -2)])
            #expect(!inside.contains("\""), "a raw quote inside the label of n\(id)")
            labels[id] = Self.mermaidDecoded(inside)
        }
        for (index, name) in Self.names.enumerated() {
            let expected = "#\(index + 1) " + Self.readable(name)
            #expect(labels[index + 1]?.hasPrefix(expected) == true, "n\(index + 1): \(labels[index + 1]?.debugDescription.prefix(80) ?? "missing")")
        }
    }

    @Test("real operations and queues with these names: the monitor's report, JSON and DOT keep them")
    func throughTheMonitor() throws {
        let monitor = OperationMonitor.forTest()
        let queue = ObservedOperationQueue(monitor: monitor, name: Self.queueName)
        queue.isSuspended = true
        let lives = Lives()
        for name in Self.names { queue.addOperation(CountedBlock(name, lives)) }
        let report = OpScopeDashboard.report(monitor)
        #expect(Set(report.operations.map(\.name)) == Set(Self.names))
        #expect(report.queues.map(\.name) == [Self.queueName])
        let object = try JSONSerialization.jsonObject(with: Data(report.json())) as? [String: Any]
        let names = (object?["operations"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(Set(names) == Set(Self.names))
        let dot = OpScopeDashboard.graph(monitor, format: .dot)
        #expect(!dot.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
    }

    // MARK: Helpers

    /// The name as the exporters make it readable: control characters other than a line break,
    /// and the two Unicode line separators, become spaces.
    static func readable(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
            (scalar != "\n" && scalar.properties.generalCategory == .control) || scalar == "\u{2028}" || scalar == "\u{2029}" ? " " : scalar
        }))
    }

    static func dotEscaped(_ name: String) -> String {
        readable(name).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A Mermaid label's text: its entity codes and `<br>` decoded.
    static func mermaidDecoded(_ label: String) -> String {
        var text = label.replacingOccurrences(of: "<br>", with: "\n")
        for (code, character) in [("#quot;", "\""), ("#35;", "#"), ("#amp;", "&"), ("#lt;", "<"), ("#gt;", ">"), ("#96;", "`")] {
            text = text.replacingOccurrences(of: code, with: character)
        }
        return text
    }

    static let dotPath: String? = {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/dot" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Runs a program on `input`; its output, error output and status.
    static func run(_ path: String, _ arguments: [String], input: String) throws -> (output: String, errors: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Both outputs are read on threads of their own, so that a full pipe cannot block it.
        let output = PipeReader(stdout.fileHandleForReading)
        let errors = PipeReader(stderr.fileHandleForReading)
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        return (output.text(), errors.text(), process.terminationStatus)
    }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeReader: @unchecked Sendable {
    // Safety: `data` is written by the reading thread before `done` is signalled, read after.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
