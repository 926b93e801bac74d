import Foundation

/// A section of a guide that is generated from code (a key table, an example file): the text
/// between `<!-- NAME: generated from SOURCE; OPSCOPE_RECORD=1 swift test --filter SUITE
/// rewrites it -->` and `<!-- end of NAME -->`. A test compares it with what the code gives now;
/// with `OPSCOPE_RECORD=1` it rewrites the guide instead.
public struct GeneratedSection {
    /// The guide, by its path from the repository's root (`docs/config.md`).
    public let document: String
    /// The section's name in its markers (`keys`).
    public let name: String
    /// What it is generated from, as its first marker says (`KeyBindings`).
    public let source: String
    /// The test suite that checks and rewrites it.
    public let suite: String

    /// A section of `document`.
    public init(_ document: String, name: String, from source: String, checkedBy suite: String) {
        self.document = document
        self.name = name
        self.source = source
        self.suite = suite
    }

    /// The repository's root (this file is Sources/OpScopeTestSupport/GeneratedSection.swift).
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A section the guide lacks, or one whose end marker is missing.
    public struct Missing: Error, CustomStringConvertible {
        /// What is missing where.
        public let description: String
    }

    /// The section's text as the guide has it, after rewriting it to `wanted` when
    /// `OPSCOPE_RECORD` is set (then it is `wanted`).
    public func current(wanted: String) throws -> String {
        let url = Self.root.appendingPathComponent(document)
        let text = try String(contentsOf: url, encoding: .utf8)
        let begin = "<!-- \(name): generated from \(source); OPSCOPE_RECORD=1 swift test --filter \(suite) rewrites it -->\n"
        let end = "\n<!-- end of \(name) -->"
        guard let start = text.range(of: begin) else { throw Missing(description: "\(document) has no generated \(name) section (\(begin))") }
        guard let stop = text.range(of: end, range: start.upperBound..<text.endIndex) else {
            throw Missing(description: "\(document): the \(name) section has no end marker (\(end))")
        }
        let current = String(text[start.upperBound..<stop.lowerBound])
        if ProcessInfo.processInfo.environment["OPSCOPE_RECORD"] != nil, current != wanted {
            try text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: wanted).write(to: url, atomically: true, encoding: .utf8)
            return wanted
        }
        return current
    }
}
