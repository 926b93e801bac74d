import Foundation

/// Validates files against the JSON Schemas in schemas/ with scripts/check-schemas.py (Python's
/// jsonschema): the tests hold OpScope's real output to its published formats.
public enum SchemaCheck {
    /// Which schema: the JSON report or the event stream's lines.
    public enum Format: String, Sendable {
        /// `schemas/report.schema.json`: each file one report.
        case report
        /// `schemas/stream.schema.json`: each file JSON Lines.
        case stream
    }

    /// What the validator said and how it ended (0 valid, 1 invalid, 3 jsonschema missing).
    public struct Outcome: Sendable {
        /// Its exit status.
        public var status: Int32
        /// Its standard output and error, one problem a line.
        public var output: String
        /// The run passed.
        public var valid: Bool { status == 0 }
    }

    /// The package's root directory.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A schema's JSON, for tests that compare its vocabularies with the code's.
    public static func schema(_ format: Format) throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent("schemas/\(format.rawValue).schema.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Runs the validator on `files` with `options` (`--expect-invalid`, `--require-kinds ...`,
    /// `--require-every-change`, `--open`).
    public static func run(_ format: Format, _ files: [String], options: [String] = []) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/check-schemas.py").path, format.rawValue]
            + options + files
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var text = String(decoding: output, as: UTF8.self)
        if process.terminationStatus == 3 { text += "\n(.ci/run installs jsonschema; by hand: python3 -m pip install jsonschema)" }
        return Outcome(status: process.terminationStatus, output: text)
    }

    /// The `enum` of the subschema at `path` (`["$defs", "event", "properties", "change"]`), as
    /// strings: tests compare a schema's vocabularies with the code's.
    public static func vocabulary(_ format: Format, at path: [String]) throws -> [String] {
        var node: Any? = try schema(format)
        for key in path { node = (node as? [String: Any])?[key] }
        return (node as? [String: Any])?["enum"] as? [String] ?? []
    }
}
