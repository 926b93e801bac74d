import DashboardModel
import OperationEvents
import TerminalKit

/// View 4: the narration log, newest last. ↑ ↓ move a cursor through its entries, Enter goes to
/// the cursor's operation.
struct NarrationScreen: ScreenView {
    let text = ScreenText(.narration, title: "narration",
                          keyHelp: "view: the narration log",
                          summary:
                              "narration: the sentences `t` turns on, one per change, newest last, from the program's first change (times count from "
                              + "it); `.` while paused narrates one event at a time")

    /// None: the log lists sentences, and its cursor is on one of those.
    func listedOperations(_ model: DashboardModel, _ interaction: inout Interaction) -> [OperationID] { [] }

    func render(_ model: DashboardModel, _ interaction: Interaction, theme: Theme, warnings: [Warning],
                into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        guard let inner = ListScreen(theme: theme).frame(self, into: &buffer, area: area, map: &map) else { return }
        draw(interaction.state.narration, theme: theme, into: &buffer, area: inner, map: &map)
    }

    func shown(_ interaction: inout Interaction) {
        let narration = interaction.state.narration
        if !narration.isOn, narration.entries.isEmpty { interaction.status("narration is off: t turns it on") }
    }

    /// The cursor through the entries; back at the newest, it follows new ones again.
    func move(by delta: Int, _ interaction: inout Interaction, _ model: DashboardModel) {
        let count = interaction.state.narration.entries.count
        guard count > 0 else { return }
        let current = interaction.state.narration.cursor ?? count - 1
        let next = min(max(0, current.addingClamped(delta)), count - 1)
        interaction.state.narration.cursor = next == count - 1 ? nil : next
    }

    /// To the operation of the cursor's entry (or the newest).
    func enter(_ interaction: inout Interaction, _ model: DashboardModel) -> [Effect] {
        let narration = interaction.state.narration
        let entries = narration.entries
        guard let entry = narration.cursor.map({ entries[min($0, entries.count - 1)] }) ?? entries.last else { return [] }
        guard let id = entry.operation else { return interaction.error("this sentence is about a queue, not an operation") }
        return interaction.reveal(id, model)
    }

    /// Puts the cursor on the clicked entry.
    func click(_ row: ListRowArea, _ interaction: inout Interaction, _ model: DashboardModel) {
        interaction.state.narration.cursor = row.entry
    }

    /// The narration log, newest last; the cursor's entry highlighted. Entries wrap by words.
    private func draw(_ narration: NarrationState, theme: Theme, into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        let entries = narration.entries
        guard !entries.isEmpty else {
            let text = narration.isOn ? "nothing narrated yet: sentences come with the next changes"
                : "narration is off: t turns it on; while paused, . narrates one event at a time"
            for (row, line) in TextWrap.wrap(text, width: area.width).prefix(area.height).enumerated() {
                buffer.write(line, x: area.x, y: area.y + row, style: theme.dim, clip: area)
            }
            return
        }
        let origin = narration.origin ?? entries[0].time
        let timeWidth = 10
        func lines(_ index: Int) -> [String] {
            TextWrap.wrap(theme.text(entries[index].text), width: max(10, area.width - timeWidth))
        }
        // The cursor's entry (or the newest) at the bottom, earlier ones above it; near the
        // start of the log, the page is filled with the later ones (Home shows the first page).
        let anchor = min(narration.cursor ?? entries.count - 1, entries.count - 1)
        var block: [(index: Int, text: String, first: Bool)] = []
        var index = anchor
        while index >= 0, block.count < area.height {
            block.insert(contentsOf: lines(index).enumerated().map { (index, $0.element, $0.offset == 0) }, at: 0)
            index -= 1
        }
        var after = anchor + 1
        while block.count < area.height, after < entries.count {
            block.append(contentsOf: lines(after).enumerated().map { (after, $0.element, $0.offset == 0) })
            after += 1
        }
        let visible = block.count > area.height && after > anchor + 1 ? block.prefix(area.height) : block.suffix(area.height)
        for (row, line) in visible.enumerated() {
            let y = area.y + row
            let entry = entries[line.index]
            let time = line.first ? "+" + DurationText.format(entry.time >= origin ? entry.time - origin : 0) : ""
            buffer.write(GraphTextFit.pad(time, timeWidth), x: area.x, y: y, style: theme.dim, clip: area)
            buffer.write(line.text, x: area.x + timeWidth, y: y, style: entry.operation == nil ? theme.header : .plain, clip: area)
            if narration.cursor == line.index { buffer.restyle(Rect(x: area.x, y: y, width: area.width, height: 1)) { $0.attributes.insert(.reverse) } }
            map.list.rows.append(ListRowArea(operation: entry.operation, entry: line.index))
        }
    }
}
