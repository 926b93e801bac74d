import DashboardModel
import OperationEvents
import TerminalKit

/// Every key, the `:` commands, the filter syntax, the views and the legend, over the panes;
/// ↑ ↓ PgUp PgDn scroll it, so that it is whole on any screen.
struct HelpOverlay {
    let theme: Theme

    /// The filter syntax, as help and docs/keys-and-views.md give it.
    static let filterLines = [
        "words must all match: free text looks in the name, type, queue, state and id",
        "key:value looks in one field: " + FilterQuery.keysHint,
        "a|b (or a,b) is either; !word negates: !state:finished, state:ready|executing",
        "why: " + FilterQuery.reasonsHint.joined(separator: " "),
        "qos: ui init def util bg (or the full names)",
    ]

    /// The heading of the `:` commands, where `:help` opens the help.
    static let commandsHeading = "Commands (:)"

    /// The content, line by line.
    static func lines(theme: Theme, caption: String, configuration: ModelConfiguration, width: Int) -> [[TextBlock.Span]] {
        var lines: [[TextBlock.Span]] = []
        func heading(_ text: String) {
            if !lines.isEmpty { lines.append([]) }
            lines.append([.init(text, theme.header.with(.underline))])
        }
        func wrapped(_ text: String, _ style: Style = .plain, indent: Int = 0) {
            for line in TextWrap.wrap(text, width: max(10, width - indent)) {
                lines.append([.init(String(repeating: " ", count: indent) + line, style)])
            }
        }
        if !caption.isEmpty {
            heading("This program")
            wrapped(caption)
        }
        let retention = "Finished operations stay listed for \(DurationText.format(configuration.finishedRetention)) "
            + "(at most \(configuration.maximumRetainedFinished)); older ones are counted per queue."
        wrapped(retention, theme.dim)
        // Both scale with --speed as the retention does: the help is where a slowed demo says so.
        let delays = "The \"too long\" warnings wait \(DurationText.format(configuration.longExecution)) for an "
            + "operation still executing, \(DurationText.format(configuration.cancelledStillExecuting)) for a cancelled one, "
            + "\(DurationText.format(configuration.conditionGrace)) for one with no dependency that is not ready (a condition of its own)."
        wrapped(delays, theme.dim)
        heading("Keys")
        for binding in KeyBindings.all {
            let help = TextWrap.wrap(binding.help, width: max(10, width - 13))
            for (index, line) in help.enumerated() {
                lines.append([.init(GraphTextFit.pad(index == 0 ? binding.label : "", 12), theme.header), .init(" " + line)])
            }
        }
        heading("On the : and / lines")
        for (label, help) in KeyBindings.lineKeys {
            lines.append([.init(GraphTextFit.pad(label, 17), theme.header), .init(" " + help)])
        }
        heading(commandsHeading)
        for usage in CommandPrompt.usage { wrapped(usage, theme.dim) }
        heading("Filter (/)")
        for line in filterLines { wrapped(line, theme.dim) }
        heading("Views")
        for screen in ViewState.Screen.allCases { lines.append([.init("\(screen.rawValue)  ", theme.header), .init(screen.title)]) }
        heading(Legend.heading)
        lines += Legend.lines(theme: theme, width: width)
        return lines
    }

    func render(offset: Int, opensAt heading: String? = nil, caption: String, configuration: ModelConfiguration,
                into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        let width = min(area.width, 100)
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y, width: width, height: area.height)
        Self.clear(behind: box, within: area, &buffer)
        let inner = Frame(title: "Help: ↑ ↓ PgUp PgDn scroll, any other key closes", style: theme.focusedFrame,
                          titleStyle: theme.focusedFrame, ascii: !theme.unicode).render(into: &buffer, area: box)
        let lines = Self.lines(theme: theme, caption: caption, configuration: configuration, width: inner.width)
        let start = heading.flatMap { text in lines.firstIndex { $0.first?.text == text } } ?? offset
        let first = min(max(0, start), max(0, lines.count - inner.height))
        TextBlock(lines: lines, offset: first).render(into: &buffer, area: inner)
        map.overlayBody = inner
        map.overlayLines = lines.count
        map.overlayFirst = first
        if lines.count > inner.height, box.height > 1 {
            let position = " \(first + 1)-\(min(lines.count, first + inner.height)) of \(lines.count) "
            buffer.write(position, x: box.maxX - position.count - 1, y: box.maxY - 1, style: theme.focusedFrame, clip: box)
        }
    }
}

extension HelpOverlay {
    /// Blanks `box` and the cells around it (within `area`): a pane's border left beside the
    /// box's own would read as part of it (`┌│ Help …│┐`).
    static func clear(behind box: Rect, within area: Rect, _ buffer: inout Buffer) {
        buffer.fill(Rect(x: box.x - 1, y: box.y - 1, width: box.width + 2, height: box.height + 2).intersection(area))
    }
}

/// What the symbols and colours mean: the help's last part, where `L` opens it.
package enum Legend {
    /// The help's heading for the legend (`L` opens the help there).
    package static let heading = "Legend"

    /// One mark and what it means.
    package struct Mark {
        /// As drawn (the frame's last pass maps it to ASCII under `--ascii`).
        package var mark: String
        package var style: Style
        package var meaning: String
        /// A state glyph's line: the glyph column is narrower than a word's.
        var isGlyph = false
    }

    /// Every mark the dashboard draws, once: the lines below are made from it, and a test keeps
    /// the marks apart in ASCII as well (each stand-in has one meaning).
    package static func marks(theme: Theme) -> [Mark] {
        func colour(_ name: String) -> String { theme.color ? " (\(name))" : "" }
        let states: [(OperationState, Bool, Bool, String)] = [
            (.executing, false, false, "executing: isExecuting true" + colour("green")),
            (.ready, false, false, "ready: isReady true, waits for a slot or its turn" + colour("cyan")),
            (.pending, false, false, "pending: isReady false, waits on dependencies or a condition of its own" + colour("yellow")),
            (.finished, false, false, "finished: isFinished true" + colour("grey")),
            (.pending, true, false, "cancelled: isCancelled true (the state column says if it finished)" + colour("red")),
            (.pending, false, true, "in a dependency cycle: never starts" + colour("magenta")),
        ]
        var marks = states.map { state, cancelled, cycle, text in
            Mark(mark: theme.glyph(state: state, cancelled: cancelled, inCycle: cycle),
                 style: theme.style(state: state, cancelled: cancelled, inCycle: cycle), meaning: text, isGlyph: true)
        }
        marks += [
            Mark(mark: theme.unicode ? "⇄" : "<>", style: .plain, meaning: "asynchronous operation (finishes when it calls finish())"),
            Mark(mark: "•", style: .plain, meaning: "tagged (Space): c cancels the tagged operations"),
            Mark(mark: "PRIO", style: .plain,
                 meaning: "queuePriority, in the table and the QoS lanes (after an id: ●12(vhigh)): vlow low norm high vhigh, barr (a barrier)"),
            Mark(mark: "QOS", style: .plain,
                 meaning: "qualityOfService, in the table and the QoS lanes' rows: UI INIT DEF UTIL BG (userInteractive … background)"),
            Mark(mark: theme.priorityMismatchMark, style: .plain,
                 meaning: "after a priority: the queue schedules it at another priority than the one set"),
            Mark(mark: "~", style: theme.dim, meaning: "a key change seen by sampling (not reported when it happened)"),
            Mark(mark: "≈", style: theme.dim, meaning: "a key change inferred (not seen directly)"),
            Mark(mark: "!", style: theme.error, meaning: "a warning (the warnings pane lists them, Tab to it; the header counts them)"),
            Mark(mark: "▸", style: theme.header, meaning: "the selected queue (s, C, ( and ) act on it); in the graph, a fold (Enter opens it)"),
            Mark(mark: "SUSPENDED", style: theme.suspended, meaning: "a suspended queue: it starts nothing"),
            Mark(mark: "held", style: theme.dim,
                 meaning: "QoS lanes: ready but not starting: its queue is suspended or released, it was never added to one, "
                     + "or its queue has had room for it a while and not started it"),
            Mark(mark: "sampled", style: theme.warning, meaning: "a queue OpScope polls: work shorter than a poll is not seen"),
            Mark(mark: "◆", style: .plain, meaning: "graph: a root cause (underlined), what the work below it waits on"),
            Mark(mark: "┄", style: .plain, meaning: "graph: a cycle's back edge"),
            Mark(mark: "·", style: .plain, meaning: "graph: the operation's queue, after its name (·net)"),
        ]
        return marks
    }

    static func lines(theme: Theme, width: Int) -> [[TextBlock.Span]] {
        var lines: [[TextBlock.Span]] = []
        for mark in marks(theme: theme) {
            // A glyph takes three columns and a word eleven; the meaning wraps beside either.
            let column = mark.isGlyph ? 3 : 11
            for (index, line) in TextWrap.wrap(mark.meaning, width: max(10, width - column - 1)).enumerated() {
                let head = index == 0 ? " " + GraphTextFit.pad(mark.mark, column - 1) : String(repeating: " ", count: column)
                lines.append([.init(head, mark.style), .init(" " + line)])
            }
        }
        return lines
    }
}
