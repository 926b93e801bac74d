import DashboardConfig
import DashboardSession
import DashboardUI
import Foundation
import OpScopeTestSupport
import Testing

/// docs/config.md is the table of keys: its key table and its every-key-at-its-default file are
/// generated from `ConfigKey.all` (`OPSCOPE_RECORD=1` rewrites them), and every TOML example in
/// it is a file OpScope takes.
@Suite("Config file: the guide is the table of keys", .serialized)
struct ConfigDocsTests {
    private static let guide = "docs/config.md"

    private func section(_ name: String) -> GeneratedSection {
        GeneratedSection(Self.guide, name: name, from: "ConfigKey.all", checkedBy: "ConfigDocsTests")
    }

    /// The example file as the guide shows it: a TOML block.
    private var exampleBlock: String { "```toml\n" + ConfigDocumentation.exampleFile() + "\n```" }

    @Test("the key table of docs/config.md is generated from ConfigKey.all")
    func keyTable() throws {
        let wanted = ConfigDocumentation.keyTable()
        #expect(try section("keys").current(wanted: wanted) == wanted, "run with OPSCOPE_RECORD=1 to regenerate")
    }

    @Test("the every-key file of docs/config.md is generated from ConfigKey.all")
    func exampleFile() throws {
        #expect(try section("example").current(wanted: exampleBlock) == exampleBlock, "run with OPSCOPE_RECORD=1 to regenerate")
    }

    @Test("the every-key file sets nothing; uncommented, it sets every setting, each to the built-in default")
    func exampleIsTheDefaults() throws {
        let example = ConfigDocumentation.exampleFile()
        #expect(try ConfigFile(parsing: example, path: "example.toml").settings == DashboardSettings())
        let keyLines = example.split(separator: "\n").filter { line in ConfigKey.all.contains { line.hasPrefix("# \($0.name) = ") } }
        #expect(keyLines.count == ConfigKey.all.count)
        let uncommented = keyLines.map { $0.dropFirst(2) }.joined(separator: "\n")
        let settings = try ConfigFile(parsing: uncommented, path: "example.toml").settings
        let fields = Mirror(reflecting: settings).children
        #expect(fields.count == ConfigKey.all.count, "a setting without a key, or a key without a setting")
        for field in fields {
            let value = Mirror(reflecting: field.value)
            #expect(value.displayStyle == .optional && value.children.count == 1, "\(field.label ?? "?") is not set by the example")
        }
        let options = settings.applied(to: SessionOptions())
        let defaults = SessionOptions()
        #expect(options.initialView == defaults.initialView)
        #expect(options.narration == defaults.narration && options.color == defaults.color && options.unicode == defaults.unicode)
        #expect(options.mouse == defaults.mouse && options.framesPerSecond == defaults.framesPerSecond)
    }

    @Test("each key changes what it names when set to something other than its default")
    func everyKeyApplies() throws {
        let lines = EveryKey.text.split(separator: "\n").map(String.init)
        #expect(Set(lines.map { String($0.prefix { $0 != " " }) }) == Set(ConfigKey.all.map(\.name)))
        for line in lines {
            let single = try ConfigFile(parsing: line, path: "one.toml").settings
            #expect(describe(single.applied(to: SessionOptions())) != describe(SessionOptions()), "\(line) changed nothing")
        }
    }

    /// What a key can change in session options, as text to compare.
    private func describe(_ options: SessionOptions) -> String {
        "\(options.initialView.screen) \(options.initialView.table) \(options.narration) \(options.color) \(options.unicode) "
            + "\(options.mouse) \(options.framesPerSecond)"
    }

    @Test("every TOML block of docs/config.md is a file OpScope takes")
    func examplesParse() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent(Self.guide), encoding: .utf8)
        let blocks = text.components(separatedBy: "```toml\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        #expect(blocks.count >= 2)
        for block in blocks {
            #expect(throws: Never.self) { try ConfigFile(parsing: block, path: Self.guide) }
        }
        let first = try ConfigFile(parsing: try #require(blocks.first), path: Self.guide).settings
        #expect(first.view == .stuck && first.hideFinished == true, "the guide's example says what its prose says")
    }
}
