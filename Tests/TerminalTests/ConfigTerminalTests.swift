import Foundation
import Testing

/// The config file with the real program at 80x24: the file's view, sort and hidden finished
/// work are what the dashboard opens on, a flag wins over the file, the standard file is found
/// through XDG_CONFIG_HOME, and a bad file is refused before the terminal is touched.
@Suite("Terminal: the config file", .serialized, .timeLimit(.minutes(3)))
struct ConfigTerminalTests {
    init() {
        #expect(Tmux.run(["tmux", "-V"]).ok, "tmux is needed for these tests (apt-get install tmux)")
        #expect(FileManager.default.isExecutableFile(atPath: Tmux.opscope), "opscope not built at \(Tmux.opscope)")
    }

    /// A new directory holding `config.toml` with `text` (at `opscope/config.toml` too, for
    /// XDG_CONFIG_HOME); returns the directory.
    private func directory(with text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("opscope-config-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path + "/opscope", withIntermediateDirectories: true)
        try text.write(toFile: path + "/config.toml", atomically: true, encoding: .utf8)
        try text.write(toFile: path + "/opscope/config.toml", atomically: true, encoding: .utf8)
        return path
    }

    private let settings = """
        # opens on the stuck view, in ASCII; the overview's table by wait, longest first, finished work hidden
        view = "stuck"
        sort = "wait"
        sort_descending = true
        hide_finished = true
        ascii = true
        """

    /// Box drawing or any other character an ASCII frame would not hold.
    private func hasUnicode(_ screen: String) -> Bool { screen.unicodeScalars.contains { $0.value > 0x7e } }

    @Test("--config FILE: the dashboard opens on its view, in ASCII; its table is sorted and without finished work")
    func fileSetsTheView() throws {
        let config = try directory(with: settings) + "/config.toml"
        let tmux = Tmux("\(Tmux.opscope) demo pipeline --config \(Tmux.quoted(config))", width: 80, height: 24)
        let stuck = tmux.wait(for: "the stuck view") { $0.contains("2 stuck by root cause") && $0.contains("q3 ui") }
        #expect(!hasUnicode(stuck), "ascii = true: \(stuck)")
        #expect(!stuck.contains("Operations"), "not the overview: \(stuck)")
        tmux.send("1")
        let overview = tmux.wait(for: "the overview's table as the file says") { $0.contains("Operations (finished hidden)  sort WAITv") }
        #expect(!overview.split(separator: "\n").contains { $0.contains("finished ") && $0.contains("#") }, "no finished row: \(overview)")
        tmux.send("q")
        #expect(tmux.wait(for: "the exit") { $0.contains("EXIT=") }.contains("EXIT=0"))
    }

    @Test("a flag wins over the file: --unicode draws box drawing; --no-config opens on the defaults")
    func flagWins() throws {
        let config = try directory(with: settings) + "/config.toml"
        let unicode = Tmux("\(Tmux.opscope) demo pipeline --config \(Tmux.quoted(config)) --unicode", width: 80, height: 24)
        let screen = unicode.wait(for: "the stuck view in Unicode") { $0.contains("2 stuck by root cause") && $0.contains("─") }
        #expect(screen.contains("│") || screen.contains("┌"), "\(screen)")
        unicode.send("q")
        unicode.wait(for: "the exit") { $0.contains("EXIT=") }
        let home = try directory(with: settings)
        let none = Tmux("XDG_CONFIG_HOME=\(Tmux.quoted(home)) \(Tmux.opscope) demo pipeline --no-config", width: 80, height: 24)
        let plain = none.wait(for: "the overview at its defaults") { $0.contains("Operations  sort ID▲") }
        #expect(!plain.contains("finished hidden") && !plain.contains("stuck by root cause"), "\(plain)")
        none.send("q")
        none.wait(for: "the exit") { $0.contains("EXIT=") }
    }

    @Test("the standard file is $XDG_CONFIG_HOME/opscope/config.toml")
    func standardFile() throws {
        let home = try directory(with: "view = \"timeline\"\nhide_finished = true\n")
        let tmux = Tmux("XDG_CONFIG_HOME=\(Tmux.quoted(home)) \(Tmux.opscope) demo pipeline", width: 80, height: 24)
        tmux.wait(for: "the timeline view") { $0.contains("5 timeline") && $0.contains("q3 ui") }
        tmux.send("1")
        tmux.wait(for: "the overview without finished work") { $0.contains("Operations (finished hidden)") }
        tmux.send("q")
        tmux.wait(for: "the exit") { $0.contains("EXIT=") }
    }

    @Test("a bad file is one line naming the file, the line, the key and what is allowed; exit 2; the terminal untouched")
    func badFile() throws {
        let home = try directory(with: "# mine\nview = \"graf\"\n")
        let file = home + "/opscope/config.toml"
        let tmux = Tmux("XDG_CONFIG_HOME=\(Tmux.quoted(home)) \(Tmux.opscope) demo pipeline", width: 80, height: 24)
        let screen = tmux.wait(for: "the refusal") { $0.contains("EXIT=") }
        let joined = screen.replacingOccurrences(of: "\n", with: "")
        #expect(joined.contains("opscope: \(file):2: view = \"graf\": expected one of overview, stuck, start-order, narration, timeline"),
                "\(screen)")
        #expect(screen.contains("EXIT=2"), "\(screen)")
        #expect(!screen.contains("OpScope") && !screen.contains("q1 net"), "the dashboard never opened: \(screen)")
        #expect(screen.contains("icanon") && !screen.contains("-icanon"), "the terminal is as it was: \(screen)")
        let missing = Tmux("\(Tmux.opscope) demo pipeline --config \(Tmux.quoted(home + "/none.toml"))", width: 80, height: 24)
        let refused = missing.wait(for: "the refusal") { $0.contains("EXIT=") }
        #expect(refused.replacingOccurrences(of: "\n", with: "").contains("none.toml: cannot read it: No such file or directory"), "\(refused)")
        #expect(refused.contains("EXIT=2"), "\(refused)")
    }
}
