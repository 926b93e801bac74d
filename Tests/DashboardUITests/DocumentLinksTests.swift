import Foundation
import Testing

/// README.md is the front door and docs/ holds the guides it links: every relative link in them
/// leads to a file or folder of the repository, and README stays short enough to read first.
@Suite("Documents: README and the guides link to files that exist")
struct DocumentLinksTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// README.md, the documents beside it and every Markdown file in docs/.
    private static func documents() throws -> [URL] {
        let top = ["README.md", "BENCHMARKS.md", "RELIABILITY.md", "CHANGELOG.md"].map { root.appendingPathComponent($0) }
        let docs = root.appendingPathComponent("docs")
        let guides = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
            .map { docs.appendingPathComponent($0) }
        return top.filter { FileManager.default.fileExists(atPath: $0.path) } + guides
    }

    /// The targets of the Markdown links `[text](target)` outside code, without titles.
    static func linkTargets(in text: String) -> [String] {
        var targets: [String] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { inFence.toggle(); continue }
            if inFence { continue }
            // Code spans are not links: drop them before looking.
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map { String($0.element) }.joined(separator: " ")
            var rest = Substring(prose)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                let target = after[..<close].split(separator: " ").first.map(String.init) ?? ""
                targets.append(target)
                rest = after[after.index(after: close)...]
            }
        }
        return targets
    }

    @Test("every relative link in README.md and docs/*.md points at a file that exists")
    func relativeLinksResolve() throws {
        let documents = try Self.documents()
        #expect(documents.count >= 10, "\(documents.map(\.lastPathComponent))")
        var checked = 0
        for document in documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            for target in Self.linkTargets(in: text) {
                if target.isEmpty || target.hasPrefix("#") || target.contains("://") || target.hasPrefix("mailto:") { continue }
                let path = String(target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                let resolved = document.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                #expect(FileManager.default.fileExists(atPath: resolved.path),
                        "\(document.lastPathComponent): \(target) leads nowhere (\(resolved.path))")
                checked += 1
            }
        }
        #expect(checked >= 30, "only \(checked) relative links found: is the link reader broken?")
    }

    @Test("every guide in docs/ is reachable from README.md in one click")
    func guidesAreLinkedFromReadme() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let linked = Set(Self.linkTargets(in: readme).map { String($0.split(separator: "#")[0]) })
        let docs = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }
        for guide in docs {
            #expect(linked.contains("docs/" + guide), "README.md does not link docs/\(guide)")
        }
    }

    @Test("README.md is at most 15 KB")
    func readmeIsShort() throws {
        let size = try Data(contentsOf: Self.root.appendingPathComponent("README.md")).count
        #expect(size <= 15 * 1024, "README.md is \(size) bytes: move the detail into a guide in docs/")
    }

    @Test("the link reader finds links, skips code, and keeps anchors for the caller")
    func linkReader() {
        let text = """
            See [a](docs/a.md) and [b](b.md#part "title"), not `[c](c.md)`.
            ```
            [d](d.md)
            ```
            [e](https://example.com) [f](#here)
            """
        #expect(Self.linkTargets(in: text) == ["docs/a.md", "b.md#part", "https://example.com", "#here"])
    }
}
