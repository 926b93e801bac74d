import DashboardModel
import OperationEvents
import TerminalKit

/// Composes a whole frame from the model and the view state: title, queues, the view (the
/// overview's panes, or a list), the narration line, the status line and key bar, and the
/// overlays. Pure: the same inputs give the same cells (the clock is the model's).
public struct FrameComposer: Sendable {
    /// Colours and character set.
    public var theme: Theme
    /// The one-line lesson or description shown under the title (a demo's caption).
    public var caption: String
    /// Smallest usable terminal.
    public static let minimumWidth = 40
    /// Smallest usable terminal height.
    public static let minimumHeight = 10

    /// A composer.
    public init(theme: Theme = Theme(), caption: String = "") {
        self.theme = theme
        self.caption = caption
    }

    /// Draws a frame of `width` × `height`; returns it and where things went (for the mouse).
    public func compose(_ model: DashboardModel, _ interaction: Interaction, width: Int, height: Int) -> (Buffer, ScreenMap) {
        var buffer = Buffer(width: width, height: height)
        var map = ScreenMap()
        map.graph = interaction.map.graph
        map.rows = interaction.map.rows
        guard width >= Self.minimumWidth, height >= Self.minimumHeight else {
            drawTooSmall(&buffer)
            return (buffer, map)
        }
        let state = interaction.state
        let warnings = model.warnings()
        let title = titleLayout(width: width, height: height, model, state, warnings: warnings.count)
        let (titleRow, rest) = buffer.area.splitTop(title.caption.count)
        drawTitle(&buffer, titleRow, title)
        let narration = interaction.narrationLine.map { "» " + theme.text($0.text) }
        // A sentence longer than the line takes a second one where the terminal has the rows.
        let narrationRows = narration.map { height >= 30 && TextWrap.wrap($0, width: width).count > 1 ? 2 : 1 } ?? 0
        let timeline = state.timeline
        let (body, bottom) = rest.splitBottom(2 + narrationRows + (timeline == nil ? 0 : 1))
        let (header, main) = body.splitTop(HeaderView.height(queues: model.queues.count, terminalHeight: height))
        HeaderView(theme: theme).render(model, state, into: &buffer, area: header, map: &map)
        state.screen.view.render(model, interaction, theme: theme, warnings: warnings, into: &buffer, area: main, map: &map)
        var line = bottom.y
        if let timeline {
            TimelineBar(theme: theme).render(timeline, into: &buffer, area: Rect(x: bottom.x, y: line, width: bottom.width, height: 1))
            line += 1
        }
        if let narration {
            drawMessage(&buffer, Rect(x: bottom.x, y: line, width: bottom.width, height: narrationRows), narration, style: theme.title)
            line += narrationRows
        }
        let suspended = state.queue.flatMap { model.queues[$0]?.isSuspended } ?? false
        KeyBarView(theme: theme, replay: timeline, selectedQueueSuspended: suspended)
            .render(into: &buffer, area: Rect(x: bottom.x, y: line + 1, width: bottom.width, height: 1), map: &map)
        drawStatus(&buffer, Rect(x: bottom.x, y: line, width: bottom.width, height: 2), model, interaction)
        KeyBarView.keepShown(&map, buffer)
        switch state.overlay {
        case .picker(let row): PickerOverlay(theme: theme).render(interaction.templates, selected: row, into: &buffer, area: main)
        case .help(let offset):
            HelpOverlay(theme: theme).render(offset: offset, opensAt: state.helpOpensAt, caption: caption,
                                             configuration: model.configuration, into: &buffer, area: body, map: &map)
        case .confirm, nil: break
        }
        // `--ascii`: one last pass, so that no view can leak a Unicode character.
        if !theme.unicode { buffer.mapCharacters(Theme.ascii) }
        return (buffer, map)
    }

    private func drawTooSmall(_ buffer: inout Buffer) {
        let lines = ["Terminal too small: \(buffer.width)x\(buffer.height)",
                     "OpScope needs \(Self.minimumWidth)x\(Self.minimumHeight)", "q quits"]
        for (index, line) in lines.enumerated() where index < buffer.height {
            let x = max(0, (buffer.width - line.count) / 2)
            let y = max(0, (buffer.height - lines.count) / 2) + index
            buffer.write(line, x: x, y: y, style: index == 0 ? theme.warning : .plain)
        }
    }

    /// The title's contents: the badges that fit, at their columns, and the caption's lines.
    private struct TitleLayout {
        var badges: [(text: String, style: Style, x: Int)] = []
        /// One line, or two: the caption goes on under the first when it does not fit beside
        /// the badges (a demo's caption is its instruction, read whole).
        var caption: [String] = [""]
    }

    /// Columns the ` OpScope ` mark takes.
    private static let markWidth = 9

    /// The title: the caption (on a second line when it does not fit on the first and the
    /// terminal has 20 rows, cut after a whole word when even two lines are too few; `?` shows it
    /// all), and on the right the badges: the source's status, dropped events, warnings, PAUSED,
    /// narration, the count. When they do not all fit, the count and `narrating` go first and the
    /// warnings last: no other pane may be showing them.
    private func titleLayout(width: Int, height: Int, _ model: DashboardModel, _ state: ViewState, warnings: Int) -> TitleLayout {
        let x = Self.markWidth
        // In display order, each with its rank in what is kept (lower stays longer).
        var right: [(text: String, style: Style, keep: Int)] = []
        if let status = state.sourceStatus { right.append((theme.text(status), theme.error.with(.reverse), 1)) }
        if model.droppedEvents > 0 { right.append(("\(model.droppedEvents) events dropped", theme.error, 2)) }
        if warnings > 0 { right.append(("! \(warnings) warning\(warnings == 1 ? "" : "s")", theme.error.with(.reverse), 0)) }
        if state.paused { right.append(("PAUSED", theme.warning.with(.reverse), 3)) }
        if state.narration.isOn { right.append(("narrating", theme.title, 5)) }
        right.append(("\(model.operations.count) ops", theme.dim, 4))
        // At least 10 columns stay for the caption's start. Badges are set apart: with a space
        // alone, `narrating 7 ops` read as one phrase.
        let separator = theme.separator
        let room = width - x - 11
        var kept: Set<Int> = []
        func columns(_ indices: Set<Int>) -> Int {
            indices.reduce(0) { $0 + right[$1].text.count } + max(0, indices.count - 1) * separator.count + 1
        }
        for index in right.indices.sorted(by: { right[$0].keep < right[$1].keep }) where columns(kept.union([index])) <= room {
            kept.insert(index)
        }
        var layout = TitleLayout()
        var end = width - 1
        for index in right.indices.reversed() where kept.contains(index) {
            if end < width - 1 {
                end -= separator.count
                layout.badges.insert((separator, theme.dim, end), at: 0)
            }
            end -= right[index].text.count
            layout.badges.insert((right[index].text, right[index].style, end), at: 0)
        }
        guard !caption.isEmpty else { return layout }
        let text = theme.text(caption)
        let first = end - x - 2
        guard first > 3 else { return layout }
        if TerminalText.width(TerminalText.visible(text)) <= first || height < 20 {
            layout.caption = [" " + TextWrap.fit(text, width: first)]
            return layout
        }
        // The words that fit beside the badges, the rest under them (from the same column).
        var head = ""
        var words = TextWrap.words(TerminalText.visible(text))[...]
        while let word = words.first, TerminalText.width(head.isEmpty ? word : head + " " + word) <= first {
            head = head.isEmpty ? word : head + " " + word
            words = words.dropFirst()
        }
        if head.isEmpty { return TitleLayout(badges: layout.badges, caption: [" " + TextWrap.fit(text, width: first)]) }
        layout.caption = [" " + head, " " + TextWrap.fit(words.joined(separator: " "), width: width - x - 2)]
        return layout
    }

    private func drawTitle(_ buffer: inout Buffer, _ area: Rect, _ layout: TitleLayout) {
        let x = buffer.write(" OpScope ", x: area.x, y: area.y, style: theme.title.with(.reverse), clip: area)
        for badge in layout.badges { buffer.write(badge.text, x: area.x + badge.x, y: area.y, style: badge.style, clip: area) }
        for (row, line) in layout.caption.enumerated() where !line.isEmpty {
            buffer.write(line, x: x, y: area.y + row, style: theme.dim, clip: area)
        }
    }

    /// The status line: a question, the line being typed, a message, the source's status or the
    /// tags. `area` is two rows, the status line and the key bar below it: a question or message
    /// longer than the line goes on over the key bar while it is shown, so that it is read whole
    /// (the keys are in the help, and back when it goes).
    private func drawStatus(_ buffer: inout Buffer, _ area: Rect, _ model: DashboardModel, _ interaction: Interaction) {
        let state = interaction.state
        let line = Rect(x: area.x, y: area.y, width: area.width, height: 1)
        if case .confirm(let confirmation) = state.overlay {
            drawMessage(&buffer, area, Self.fitted(theme.text(confirmation.question), lines: area.height, width: area.width),
                        style: theme.warning.with(.reverse))
            return
        }
        if let input = state.input {
            let prompt = input.kind.prompt
            let shown = input.visible(width: area.width - prompt.count)
            var x = buffer.write(prompt, x: area.x, y: area.y, style: theme.header, clip: area)
            x = buffer.write(shown.text, x: x, y: area.y, clip: area)
            if shown.leftCut { buffer.write("…", x: area.x + prompt.count, y: area.y, style: theme.dim, clip: area) }
            if shown.rightCut { buffer.write("…", x: area.maxX - 1, y: area.y, style: theme.dim, clip: area) }
            let cursor = area.x + prompt.count + shown.cursor
            if cursor >= x { buffer.write(" ", x: cursor, y: area.y, clip: area) }
            buffer.restyle(Rect(x: cursor, y: area.y, width: 1, height: 1)) { $0.attributes.insert(.reverse) }
            return
        }
        if let status = state.status, status.isShown(at: model.now) {
            drawMessage(&buffer, area, theme.text(status.text), style: status.isError ? theme.error : .plain)
        } else if let source = state.sourceStatus {
            // Also here, not only in the title: a narrow title drops its badges for the caption.
            drawMessage(&buffer, area, theme.text(source), style: theme.error)
        } else if !state.table.tagged.isEmpty {
            buffer.write("\(state.table.tagged.count) tagged: c cancels them, Esc clears", x: area.x, y: area.y,
                         style: theme.dim, clip: line)
        }
    }

    /// A question cut to `lines` lines of `width` so that its `(y/n)` always shows: the names
    /// before it are cut after a whole word, and the hint after it goes first.
    static func fitted(_ question: String, lines: Int, width: Int) -> String {
        guard TextWrap.wrap(question, width: width).count > lines,
              let mark = question.firstRange(of: "? (y/n)") else { return question }
        let head = String(question[..<mark.lowerBound])
        var room = lines * width - 8
        while room > 8 {
            let text = TextWrap.fit(head, width: room) + "? (y/n)"
            if TextWrap.wrap(text, width: width).count <= lines { return text }
            room -= 8
        }
        return "(y/n)"
    }

    /// `text` on the status line, or, when it is longer, on that line and the key bar's, cut
    /// after a whole word with `…` only when two lines are not enough.
    private func drawMessage(_ buffer: inout Buffer, _ area: Rect, _ text: String, style: Style) {
        let lines = TextWrap.wrap(text, width: area.width)
        guard lines.count > 1, area.height > 1 else {
            buffer.write(TextWrap.fit(text, width: area.width), x: area.x, y: area.y, style: style,
                         clip: Rect(x: area.x, y: area.y, width: area.width, height: 1))
            return
        }
        let second = Rect(x: area.x, y: area.y + 1, width: area.width, height: 1)
        buffer.fill(second)
        buffer.write(lines[0], x: area.x, y: area.y, style: style, clip: area)
        buffer.write(TextWrap.fit(lines.dropFirst().joined(separator: " "), width: area.width), x: area.x, y: second.y,
                     style: style, clip: second)
    }
}
