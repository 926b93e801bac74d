import TerminalKit

/// What a key asks for, independent of which key it is.
public enum UserAction: Sendable, Hashable, CaseIterable {
    /// Selection movement.
    case moveUp, moveDown, pageUp, pageDown, first, last
    /// Details, back, pane focus.
    case openDetails, back, nextPane, previousPane
    /// Commands to the observed program.
    case cancelSelected, tag, cancelQueue, toggleSuspend, raiseConcurrency, lowerConcurrency
    /// Work picker, command line, filter, the find line.
    case addWork, commandLine, filter, search
    /// Pace of a demo or a replay; stepping through events while paused.
    case speedUp, speedDown, stepForward, restart
    /// Moving back while paused (the live history) and in a replay: an event back, a second
    /// either way, the previous or next mark.
    case stepBack, seekBack, seekForward, previousMark, nextMark
    /// Table order and contents.
    case sortLeft, sortRight, invertSort, toggleHideFinished
    /// Whether the selection follows its operation when it finishes and sinks below the live work.
    case toggleFollow
    /// Debugging: the next and previous stuck operation.
    case nextStuck, previousStuck
    /// Teaching: narration on and off, the legend.
    case toggleNarration, legend
    /// Whole-screen views: a digit shows the view it names; the key bar's entry, standing for
    /// every digit, shows the next view.
    case showView
    /// Graph pane.
    case toggleGraphLayout, toggleGraphFollow, panLeft, panRight, toggleGraphCompact
    /// Display and session.
    case togglePause, help, redraw, quit
}

/// Every key, in one list. Dispatch looks keys up here, the help overlay lists these entries,
/// the key bar shows the ones marked for it, and the "Keys" section of docs/keys-and-views.md is generated from it:
/// the four can never disagree.
public enum KeyBindings {
    /// One entry: the keys, what they do, and their place in the key bar.
    public struct Binding: Sendable {
        /// The keys that trigger the action.
        public var keys: [Key]
        /// The keys as people read them, e.g. `c, F9`.
        public var label: String
        /// What happens, in a few words.
        public var help: String
        /// The action; nil for documentation-only entries (the mouse).
        public var action: UserAction?
        /// In the bottom key bar: its place (Help first, Quit last, as htop), the key and a short name.
        public var bar: (place: Int, key: String, name: String)?
        /// In the key bar of a replay, which takes no commands: its place, key and short name.
        public var replayBar: (place: Int, key: String, name: String)?
        /// The view a digit shows (with `action` `.showView`).
        public var screen: ViewState.Screen?
    }

    private static func keys(_ characters: String, _ others: Key...) -> [Key] {
        characters.map { Key.character($0) } + others
    }

    /// The table: the movement and pane keys, a digit per view, then the rest.
    public static let all: [Binding] = beforeViews + viewBindings + afterViews

    /// A digit per view of `ScreenViews.all`; the first stands for them all in the key bar.
    private static var viewBindings: [Binding] {
        ScreenViews.all.map { view in
            let digit = "\(view.text.screen.rawValue)"
            let first = view.text.screen.rawValue == 1
            return Binding(keys: keys(digit), label: digit, help: view.text.keyHelp, action: .showView,
                           bar: first ? (7, ScreenViews.digitRange, "View") : nil,
                           replayBar: first ? (9, ScreenViews.digitRange, "View") : nil, screen: view.text.screen)
        }
    }

    /// The keys listed before the digits.
    private static let beforeViews: [Binding] = [
        Binding(keys: keys("k", .up), label: "↑ k", help: "select the previous operation (or move in the focused pane or view)", action: .moveUp),
        Binding(keys: keys("j", .down), label: "↓ j", help: "select the next operation (or move in the focused pane or view)", action: .moveDown),
        Binding(keys: [.pageUp], label: "PgUp", help: "a page up", action: .pageUp),
        Binding(keys: [.pageDown], label: "PgDn", help: "a page down", action: .pageDown),
        Binding(keys: [.home], label: "Home", help: "the first row", action: .first),
        Binding(keys: [.end], label: "End", help: "the last row", action: .last),
        Binding(keys: [.enter], label: "Enter", help: "details of the selected operation: why it waits, its key changes (in a list: go to it; on a fold of the graph: open it)",
                action: .openDetails),
        Binding(keys: [.escape], label: "Esc", help: "back: to the overview, close details, then clear the filter, then the tags", action: .back),
        Binding(keys: [.tab], label: "Tab", help: "next pane: queues, operations, graph (widened while it has the keys), lanes, warnings; the status line says what the keys do there", action: .nextPane, bar: (1, "Tab", "Pane")),
        Binding(keys: [.backTab], label: "Shift-Tab", help: "previous pane", action: .previousPane),
    ]

    /// The keys listed after the digits.
    private static let afterViews: [Binding] = [
        Binding(keys: keys("n"), label: "n", help: "next stuck operation (a cycle, a suspended queue, never enqueued, not ready without a "
                    + "reason, ready but not started, a lost finish, or waiting on one)", action: .nextStuck),
        Binding(keys: keys("N"), label: "N", help: "previous stuck operation", action: .previousStuck),
        Binding(keys: keys("c", .function(9)), label: "c, F9", help: "cancel the selected (or tagged) operations, after a yes",
                action: .cancelSelected, bar: (2, "F9", "Cancel")),
        Binding(keys: keys(" "), label: "Space", help: "tag / untag the selected operation and move to the next (c then cancels every tagged one)", action: .tag),
        Binding(keys: keys("C"), label: "C", help: "cancel the selected queue's unfinished operations, after a yes", action: .cancelQueue),
        Binding(keys: keys("s"), label: "s", help: "suspend / resume the selected queue", action: .toggleSuspend, bar: (3, "s", "Suspend")),
        Binding(keys: keys(")", .function(8)), label: ") F8", help: "raise the selected queue's max concurrency",
                action: .raiseConcurrency),
        Binding(keys: keys("(", .function(7)), label: "( F7", help: "lower the selected queue's max concurrency",
                action: .lowerConcurrency),
        Binding(keys: keys("a"), label: "a", help: "add work: pick one of the program's templates", action: .addWork, bar: (4, "a", "Add")),
        Binding(keys: keys(":"), label: ":", help: "command line (:help lists the commands)", action: .commandLine, replayBar: (7, ":", "Seek")),
        Binding(keys: keys("/"), label: "/", help: "filter the table: words, key:value (state queue qos name type id why), !negates, a|b either",
                action: .filter, bar: (5, "/", "Filter"), replayBar: (8, "/", "Filter")),
        Binding(keys: [.function(3), .control("f")], label: "F3 Ctrl-F",
                help: "find: the selection jumps to the next operation that matches (the filter's words), hiding none; "
                    + "on the find line F3 or Ctrl-N the next, Ctrl-P the one before, Enter stays, Esc goes back",
                action: .search),
        Binding(keys: keys("<"), label: "<", help: "sort by the column to the left", action: .sortLeft, bar: (6, "<>", "Sort")),
        Binding(keys: keys(">"), label: ">", help: "sort by the column to the right", action: .sortRight),
        Binding(keys: keys("I"), label: "I", help: "invert the sort order", action: .invertSort),
        Binding(keys: keys("H"), label: "H", help: "hide / show finished operations", action: .toggleHideFinished),
        Binding(keys: keys("F"), label: "F", help: "follow the selected operation when it finishes and sinks below the live work (htop's F); "
                    + "off, the selection keeps its place among the live rows", action: .toggleFollow),
        Binding(keys: keys("g"), label: "g", help: "graph: the selection's group / every group, stuck first (g again folds what Enter opened)",
                action: .toggleGraphLayout, bar: (8, "g", "Graph")),
        Binding(keys: keys("f"), label: "f", help: "graph stays on the selection's blocking chain, down to its root cause, until f again",
                action: .toggleGraphFollow),
        Binding(keys: keys("p"), label: "p", help: "pause the display (the queues keep running); in a replay: pause / play",
                action: .togglePause, bar: (9, "p", "Pause"), replayBar: (1, "p", "Play")),
        Binding(keys: keys("."), label: ".", help: "while paused: show the next event (one at a time, narrated); in a replay: one event on",
                action: .stepForward),
        Binding(keys: keys(","), label: ",", help: "while paused: go back one event in the retained history; in a replay: one event back",
                action: .stepBack, replayBar: (3, ",.", "Step")),
        Binding(keys: keys("["), label: "[", help: "replay: one second back", action: .seekBack, replayBar: (2, "[]", "1s")),
        Binding(keys: keys("]"), label: "]", help: "replay: one second on", action: .seekForward),
        Binding(keys: keys("{"), label: "{", help: "replay: the previous warning, or change of the selected operation", action: .previousMark, replayBar: (4, "{}", "Mark")),
        Binding(keys: keys("}"), label: "}", help: "replay: the next warning, or change of the selected operation", action: .nextMark),
        Binding(keys: keys("+"), label: "+", help: "replay: play faster", action: .speedUp, replayBar: (5, "+-", "Speed")),
        Binding(keys: keys("-"), label: "-", help: "replay: play slower", action: .speedDown),
        Binding(keys: keys("R"), label: "R", help: "replay: start over", action: .restart, replayBar: (6, "R", "Restart")),
        Binding(keys: keys("t"), label: "t", help: "narration on / off: one sentence per state change, saying why", action: .toggleNarration),
        Binding(keys: keys("L"), label: "L", help: "legend: what the symbols and colours mean (the help, opened at its end)", action: .legend),
        Binding(keys: keys("?", .function(1)), label: "?, F1", help: "this help (↑ ↓ scroll it)", action: .help, bar: (0, "F1", "Help"), replayBar: (0, "F1", "Help")),
        Binding(keys: [.control("l")], label: "Ctrl-L", help: "redraw the screen", action: .redraw),
        Binding(keys: keys("q", .function(10)), label: "q, F10", help: "quit", action: .quit, bar: (10, "F10", "Quit"), replayBar: (10, "F10", "Quit")),
        Binding(keys: keys("h", .left), label: "h ←", help: "graph: pan left (whichever pane has the keys)", action: .panLeft),
        Binding(keys: keys("l", .right), label: "l →", help: "graph: pan right", action: .panRight),
        Binding(keys: keys("z"), label: "z", help: "graph: compact (one cell per box, the selection's label below) / labelled",
                action: .toggleGraphCompact),
        Binding(keys: [], label: "mouse", help: "click selects (a row, a queue, a node, an operation in the lanes), goes to a warning's operation, or acts as a key bar entry; wheel scrolls, the help too (off with --no-mouse)", action: nil),
    ]

    /// Keys of the `:` and `/` lines (documentation: the line takes every key while open).
    public static let lineKeys: [(label: String, help: String)] = [
        ("← → Home End", "move the cursor"),
        ("Backspace Delete", "delete before / at the cursor"),
        ("Ctrl-U Ctrl-W", "delete to the start / the word before the cursor"),
        ("↑ ↓", "earlier lines (each line has its own history)"),
        ("Enter Esc", "run (or keep the filter) / cancel (Esc clears the filter)"),
    ]

    private static let index: [Key: Binding] = {
        var table: [Key: Binding] = [:]
        for binding in all where binding.action != nil {
            for key in binding.keys {
                precondition(table[key] == nil, "key \(key) is bound twice")
                table[key] = binding
            }
        }
        return table
    }()

    /// The action a key triggers in the main view, if any.
    public static func action(for key: Key) -> UserAction? { index[key]?.action }

    /// The view a key shows (a digit), if it shows one.
    public static func screen(for key: Key) -> ViewState.Screen? { index[key]?.screen }

    /// Key bar entries, in bar order: key label and name.
    public static let bar: [(key: String, name: String)] =
        all.compactMap(\.bar).sorted { $0.place < $1.place }.map { ($0.key, $0.name) }

    /// The key bar of a replay: the keys that move in the recording instead of the commands it
    /// cannot take (p plays and pauses, `:seek` goes to a moment).
    public static let replayBar: [(key: String, name: String)] =
        all.compactMap(\.replayBar).sorted { $0.place < $1.place }.map { ($0.key, $0.name) }

    /// The key bar's entries before any is left out for width: the commands, or in a replay
    /// (`replay` is where it is) the keys that move in the recording, `p` named by what it does now.
    /// Suspending is named by what it does now too: Resume while the selected queue is suspended
    /// (`selectedQueueSuspended`), since the same key, or a click on the entry, resumes it.
    public static func bar(replay: TimelineState?, selectedQueueSuspended: Bool = false) -> [(key: String, name: String)] {
        guard let replay else {
            guard selectedQueueSuspended, let suspend = all.first(where: { $0.action == .toggleSuspend })?.bar else { return bar }
            return bar.map { entry in entry.key == suspend.key ? (entry.key, resumeName) : entry }
        }
        return replayBar.map { entry in entry.key == "p" && replay.playing ? (entry.key, "Pause") : entry }
    }

    /// The suspend entry's name while the selected queue is suspended.
    static let resumeName = "Resume"

    /// The key list as a Markdown table (docs/keys-and-views.md's "Keys" section is this text).
    public static func markdownTable() -> String {
        var lines = ["| key | does |", "|---|---|"]
        for binding in all {
            let label = binding.label.replacing("|", with: "\\|")
            lines.append("| `\(label)` | \(binding.help) |")
        }
        return lines.joined(separator: "\n")
    }
}
