import DashboardModel
import OperationEvents
import TerminalKit

/// The work template picker (`a`).
struct PickerOverlay {
    let theme: Theme

    func render(_ templates: [WorkTemplateInfo], selected: Int, into buffer: inout Buffer, area: Rect) {
        let width = min(area.width - 2, 70)
        let height = min(area.height, templates.count + 3)
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + 1, width: width, height: height)
        // A blank margin around the box, as the help's: pane text right against its border
        // read as part of the list.
        HelpOverlay.clear(behind: box, within: area, &buffer)
        let inner = Frame(title: "Add work (Enter adds, Esc closes)", style: theme.focusedFrame, titleStyle: theme.focusedFrame,
                          ascii: !theme.unicode).render(into: &buffer, area: box)
        let rows = templates.map { [TextBlock.Span($0.name, theme.header), TextBlock.Span($0.summary)] }
        TableView(columns: [.init("TEMPLATE", width: 18), .init("WHAT IT DOES", width: 40)], rows: rows, selected: selected)
            .render(into: &buffer, area: inner)
    }
}
