import DashboardConfig
import DashboardSession
import DashboardUI
import Testing

/// Reading config.toml: every key, and every way a file can be wrong, told as one line that
/// names the file, the line, the key and what is allowed.
@Suite("Config file: the keys and the errors")
struct ConfigFileTests {
    private let path = "/home/someone/.config/opscope/config.toml"

    /// What `text` sets.
    private func settings(_ text: String) throws -> DashboardSettings {
        try ConfigFile(parsing: text, path: path).settings
    }

    /// The error `text` is refused with (an issue if it is taken).
    private func refusal(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ConfigError? {
        do {
            _ = try ConfigFile(parsing: text, path: path)
            Issue.record("taken: \(text)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    @Test("each key sets its setting, and nothing else")
    func eachKey() throws {
        let keys: [(String, (inout DashboardSettings) -> Void)] = [
            (#"view = "start-order""#, { $0.view = .startOrder }),
            (#"sort = "deps""#, { $0.sort = .dependencies }),
            ("sort_descending = true", { $0.sortDescending = true }),
            ("hide_finished = true", { $0.hideFinished = true }),
            ("narration = false", { $0.narration = false }),
            ("color = false", { $0.color = false }),
            ("ascii = true", { $0.ascii = true }),
            ("mouse = false", { $0.mouse = false }),
            ("fps = 12", { $0.fps = 12 }),
        ]
        #expect(keys.count == ConfigKey.all.count)
        for (text, set) in keys {
            var expected = DashboardSettings()
            set(&expected)
            #expect(try settings(text) == expected, "\(text)")
        }
        #expect(try settings("") == DashboardSettings(), "an empty file sets nothing")
        #expect(try settings("# only a comment\n\n") == DashboardSettings())
    }

    @Test("every view and every sort column has its name, the views' as the frame names them")
    func choices() throws {
        let views = ["overview": ViewState.Screen.overview, "stuck": .stuck, "start-order": .startOrder,
                     "narration": .narration, "timeline": .timeline]
        #expect(views.count == ViewState.Screen.allCases.count)
        for (name, screen) in views { #expect(try settings("view = \"\(name)\"").view == screen, "\(name)") }
        let columns = ["id": ViewState.SortColumn.id, "name": .name, "queue": .queue, "state": .state, "priority": .priority,
                       "qos": .qos, "deps": .dependencies, "wait": .wait, "run": .run]
        #expect(columns.count == ViewState.SortColumn.allCases.count)
        for (name, column) in columns { #expect(try settings("sort = \"\(name)\"").sort == column, "\(name)") }
    }

    @Test("the settings applied over session options set what each key says")
    func applied() throws {
        let file = try settings(EveryKey.text)
        let options = file.applied(to: SessionOptions())
        #expect(options.initialView.screen == .stuck)
        #expect(options.initialView.table.sort == .wait && options.initialView.table.descending)
        #expect(options.initialView.table.hideFinished)
        #expect(options.narration && !options.color && !options.unicode && !options.mouse)
        #expect(options.framesPerSecond == 10)
        let untouched = DashboardSettings().applied(to: SessionOptions())
        #expect(untouched.initialView == ViewState() && untouched.unicode && untouched.color && untouched.mouse)
        #expect(untouched.framesPerSecond == 30 && !untouched.narration)
    }

    @Test("a value that is not allowed names the file, the line, the key, the value and what is allowed", arguments: [
        ("# mine\n\nview = \"graf\"\n", 3, #"view = "graf": expected one of overview, stuck, start-order, narration, timeline"#),
        ("sort = \"speed\"", 1, #"sort = "speed": expected one of id, name, queue, state, priority, qos, deps, wait, run"#),
        ("fps = 0", 1, "fps = 0: expected an integer from 1 to 120"),
        ("fps = 500", 1, "fps = 500: expected an integer from 1 to 120"),
        ("view = \"\"", 1, #"view = "": expected one of overview"#),
        ("view = \"Stuck\"", 1, #"view = "Stuck": expected one of"#),
    ])
    func badValues(text: String, line: Int, message: String) throws {
        let error = try #require(refusal(text))
        #expect(error.path == path && error.line == line)
        #expect(error.message.hasPrefix(message), "\(error)")
        #expect(error.description == "\(path):\(line): \(error.message)")
    }

    @Test("a value of the wrong type says which type was wanted and which was given", arguments: [
        ("fps = \"30\"", #"fps = "30": expected an integer from 1 to 120, got a string"#),
        ("fps = 2.5", "fps = 2.5: expected an integer from 1 to 120, got a float"),
        ("hide_finished = 1", "hide_finished = 1: expected a boolean (true or false), got an integer"),
        ("color = \"no\"", #"color = "no": expected a boolean (true or false), got a string"#),
        ("view = 2", "view = 2: expected a string, one of overview, stuck, start-order, narration, timeline, got an integer"),
        ("mouse = [true]", "mouse = [ true ]: expected a boolean (true or false), got an array"),
        ("[ascii]\nx = 1", "ascii = {…}: expected a boolean (true or false), got a table"),
        ("fps = 2026-01-01", "fps = 2026-01-01: expected an integer from 1 to 120, got a date"),
    ])
    func wrongTypes(text: String, message: String) throws {
        let error = try #require(refusal(text))
        #expect(error.line == 1)
        #expect(error.message == message, "\(error)")
    }

    @Test("an unknown key is refused, with the near miss it probably meant and the keys there are")
    func unknownKeys() throws {
        let keys = "the keys are view, sort, sort_descending, hide_finished, narration, color, ascii, mouse, fps"
        let typo = try #require(refusal("fps = 20\n\n  colour = false\n"))
        #expect(typo.line == 3)
        #expect(typo.message == "unknown key colour (did you mean color?); \(keys)", "\(typo)")
        let far = try #require(refusal("theme = \"dark\""))
        #expect(far.message == "unknown key theme; \(keys)")
        let table = try #require(refusal("view = \"stuck\"\n[colors]\nq1 = \"red\"\n"))
        #expect(table.line == 2 && table.message.hasPrefix("unknown key colors (did you mean color?);"), "\(table)")
        let quoted = try #require(refusal("\"hide finished\" = true"))
        #expect(quoted.line == 1 && quoted.message.hasPrefix(#"unknown key "hide finished" (did you mean hide_finished?)"#), "\(quoted)")
        let hostile = try #require(refusal("\"\\u001b[2J\" = 1"))
        #expect(!hostile.message.contains("\u{1b}") && hostile.message.hasPrefix(#"unknown key "\u001B[2J""#), "\(hostile)")
        let dotted = try #require(refusal("view.name = \"stuck\""))
        #expect(dotted.line == 1 && dotted.message.hasPrefix("view = {…}: expected a string"), "\(dotted)")
    }

    @Test("TOML that does not parse gives TOMLKit's line and column")
    func syntax() throws {
        let missing = try #require(refusal("fps = 20\nview = \n"))
        #expect(missing.line == 2 && missing.message.hasPrefix("not valid TOML (column "), "\(missing)")
        #expect(missing.message.contains("expected value"), "\(missing)")
        let twice = try #require(refusal("fps = 20\nfps = 30\n"))
        #expect(twice.line == 2 && twice.message.contains("fps"), "\(twice)")
        let bare = try #require(refusal("hide_finished = yes"))
        #expect(bare.line == 1, "\(bare)")
    }

    @Test("several problems: the first in the file is told, with how many more there are")
    func firstProblem() throws {
        // TOMLKit lists keys by name (fps before view): the line decides which is first.
        let error = try #require(refusal("view = \"graf\"\ncolour = true\nfps = 0\n"))
        #expect(error.line == 1 && error.message.hasPrefix("view = \"graf\"") && error.message.hasSuffix("(and 2 more)"), "\(error)")
    }

    @Test("a key's line is found past comments, quoted spellings and multi-line strings")
    func keyLines() throws {
        let text = """
            # view = "not this"
            'fps' = 0
            """
        #expect(try #require(refusal(text)).line == 2)
        let afterString = "x = \"\"\"\nfps = 1\n\"\"\"\nfps = 0\n"
        let error = try #require(refusal(afterString))
        // `x` is unknown too (line 1), and comes first; the multi-line string's `fps = 1` is no key.
        #expect(error.line == 1 && error.message.hasPrefix("unknown key x;") && error.message.hasSuffix("(and 1 more)"), "\(error)")
    }
}
