import ArgumentParser
import DashboardConfig
import DashboardSession
import DemoLauncher
import Foundation
import Testing

/// Flags win over the config file, and the file over the built-in defaults (and over a
/// command's own: demos narrate), through the options every dashboard command takes.
@Suite("Config file: flags over the file over the defaults")
struct ConfigPrecedenceTests {
    /// A config file holding `text`.
    private func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-config-\(UUID().uuidString.prefix(8)).toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("without flags, the file's settings are the session's")
    func fileOverDefaults() throws {
        let options = try TerminalOptions.parse(["--config", file(EveryKey.text)]).sessionOptions
        #expect(options.initialView.screen == .stuck && options.initialView.table.sort == .wait)
        #expect(options.initialView.table.descending && options.initialView.table.hideFinished)
        #expect(!options.color && !options.unicode && !options.mouse && options.framesPerSecond == 10 && options.narration)
    }

    @Test("each flag wins over the file")
    func flagsOverFile() throws {
        let path = try file(EveryKey.text)
        let options = try TerminalOptions.parse(["--config", path, "--unicode", "--color", "--mouse", "--fps", "60"]).sessionOptions
        #expect(options.unicode && options.color && options.mouse && options.framesPerSecond == 60)
        #expect(options.initialView.screen == .stuck, "what no flag sets stays the file's")
        let opposite = try file("ascii = false\ncolor = true\nmouse = true\n")
        let flagged = try TerminalOptions.parse(["--ascii", "--no-color", "--no-mouse", "--config", opposite]).sessionOptions
        #expect(!flagged.unicode && !flagged.color && !flagged.mouse)
    }

    @Test("the file wins over a command's own default: a demo narrates unless the file says not to")
    func fileOverCommandDefaults() throws {
        var demo = SessionOptions()
        demo.narration = true
        let quiet = try TerminalOptions.parse(["--config", file("narration = false")])
        #expect(quiet.sessionOptions(over: demo).narration == false)
        let silent = try TerminalOptions.parse(["--config", file("fps = 20")])
        #expect(silent.sessionOptions(over: demo).narration == true, "a file without the key keeps the command's default")
        #expect(silent.sessionOptions.narration == false)
    }

    @Test("--no-config reads nothing: the built-in defaults and the flags")
    func noConfig() throws {
        let options = try TerminalOptions.parse(["--no-config", "--ascii"])
        #expect(options.configFile == nil)
        let session = options.sessionOptions
        #expect(!session.unicode && session.color && session.mouse && session.framesPerSecond == 30)
        #expect(session.initialView.screen == .overview)
    }

    @Test("refused as argument errors: a bad file, a missing --config file, --config with --no-config, --fps out of range")
    func refusals() throws {
        func message(_ arguments: [String]) -> String {
            do {
                _ = try TerminalOptions.parse(arguments)
                return "taken"
            } catch {
                return TerminalOptions.message(for: error)
            }
        }
        let bad = try file("# opscope\nview = \"graf\"\n")
        #expect(message(["--config", bad]) == "\(bad):2: view = \"graf\": expected one of overview, stuck, start-order, narration, timeline")
        #expect(message(["--config", "/nonexistent/opscope.toml"]) == "/nonexistent/opscope.toml: cannot read it: No such file or directory")
        #expect(message(["--config", bad, "--no-config"]) == "--config and --no-config: choose one")
        #expect(message(["--no-config", "--fps", "0"]) == "--fps must be between 1 and 120, got 0")
        #expect(message(["--no-config", "--ascii", "--unicode"]).contains("--unicode"), "one of the two")
    }
}
