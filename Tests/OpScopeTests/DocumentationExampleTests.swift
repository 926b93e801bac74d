import Foundation
import OpScope
import Testing

/// The documentation's articles show code that compiles against the real API: every Swift block
/// of Sources/OpScope/OpScope.docc is in DocumentationExamples.swift, line for line (indentation
/// aside), and the examples that need no terminal and write no file run.
@Suite("Documentation examples", .serialized, .timeLimit(.minutes(1)))
struct DocumentationExampleTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Swift blocks of one article, each as its lines without leading or trailing blanks.
    private static func swiftBlocks(in article: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!)
                current = nil
            } else if current != nil {
                current!.append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        return blocks
    }

    private static func trimmedLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test("every Swift block of every article is in DocumentationExamples.swift, which compiles")
    func articlesCompile() throws {
        let catalog = Self.root.appendingPathComponent("Sources/OpScope/OpScope.docc")
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }.sorted()
        #expect(articles.count >= 4, "the catalog's pages: \(articles)")
        let examples = Self.trimmedLines(try String(contentsOf: Self.root.appendingPathComponent(
            "Tests/OpScopeTests/DocumentationExamples.swift"), encoding: .utf8))
        var checked = 0
        for article in articles {
            let text = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
            for block in Self.swiftBlocks(in: text) {
                // Imports stand at the top of the examples file; the rest is contiguous there.
                var lines = block.filter { !$0.hasPrefix("import ") }
                while lines.first == "" { lines.removeFirst() }
                let found = !lines.isEmpty && examples.indices.contains { start in
                    start + lines.count <= examples.count && Array(examples[start..<start + lines.count]) == lines
                }
                #expect(found, "\(article): this block is not in DocumentationExamples.swift:\n\(lines.joined(separator: "\n"))")
                checked += 1
            }
        }
        #expect(checked >= 15, "Swift blocks checked: \(checked)")
    }

    @Test("a session on a test terminal draws the monitor's queues and quits on q")
    func testTerminalExample() {
        let monitor = OperationMonitor()
        let images = ObservedOperationQueue(monitor: monitor, name: "images")
        images.addOperations([BlockOperation {}], waitUntilFinished: true)
        let (screen, ending) = EmbedTheDashboardExamples.testTerminal(monitor)
        #expect(screen.contains("images"), "\(screen)")
        #expect(ending == .quit)
    }

    @Test("an ingest's report diagnoses what waits; the commands example suspends the queue")
    func ingestAndCommandExamples() throws {
        let monitor = OperationMonitor()
        let images = ObservedOperationQueue(monitor: monitor, name: "images")
        ObserveYourQueuesExamples.commands(monitor, images)
        #expect(images.isSuspended)
        try ObserveYourQueuesExamples.catalog(monitor, images)
        #expect(monitor.catalog.names == ["resize"])
        ObserveYourQueuesExamples.baseClasses(images)
        let stuck = ConsumeTheEventStreamExamples.ingest(monitor)
        #expect(stuck.contains { $0.kind == .queueSuspended }, "\(stuck.map(\.message))")
        images.isSuspended = false
        images.waitUntilAllOperationsAreFinished()
    }

    @Test("an encoded event line decodes to the same event")
    func encodeExample() throws {
        let event = MonitorEvent(sequence: 3, time: 42, origin: .sampled, change: .started(operation: OperationID(7)))
        let line = ConsumeTheEventStreamExamples.encode(event)
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(try StreamLine(decoding: Array(line.dropLast())) == .event(event))
    }
}
