import DashboardModel
import OperationEvents
import TerminalKit

/// View 2: waiting operations grouped under their root cause, worst first.
struct StuckScreen: ScreenView {
    let text = ScreenText(.stuck, title: "stuck by root cause", shortName: "stuck",
                          keyHelp: "view: waiting operations grouped by root cause",
                          summary:
                              "stuck by root cause: waiting operations grouped under what they wait for (a cycle, a suspended queue, an operation never "
                              + "enqueued, an asynchronous one executing past the long-running threshold, a queue at its limit), worst first; what "
                              + "waits on work still running normally comes last, as nothing stuck")

    func listedOperations(_ model: DashboardModel, _ interaction: inout Interaction) -> [OperationID] {
        RootCauseGroups.build(model).groups.flatMap(\.members)
    }

    func render(_ model: DashboardModel, _ interaction: Interaction, theme: Theme, warnings: [Warning],
                into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        let list = ListScreen(theme: theme)
        guard let inner = list.frame(self, into: &buffer, area: area, map: &map) else { return }
        list.draw(rows(model, theme: theme, width: inner.width, commands: interaction.commandsRefused == nil), model, interaction,
                  into: &buffer, area: inner, map: &map, empty: "nothing waits: every unfinished operation is running")
    }

    /// The groups of view 2; with `commands` (a source that takes them), a suspended queue's
    /// heading says which keys resume it.
    private func rows(_ model: DashboardModel, theme: Theme, width: Int, commands: Bool) -> [ListScreen.Row] {
        let groups = RootCauseGroups.build(model)
        var rows: [ListScreen.Row] = []
        for group in groups.groups {
            if !rows.isEmpty { rows.append(.blank) }
            let style = group.severity <= 3 ? theme.error : (group.severity <= 5 ? theme.warning : theme.header)
            // The root of a group waits too (never enqueued, not ready) but not for itself: it is
            // not counted among the operations that wait for it.
            let waiters = group.waiters
            var title = group.title
            if commands, case .suspended(let queue) = group.cause { title += "; here: select \(queue), s" }
            let heading = waiters == 0 ? "stuck: " + theme.text(title)
                : "\(waiters) wait\(waiters == 1 ? "s" : "") for: " + theme.text(title)
            // Headings wrap: the cause is the point of this view, so it is never cut.
            for line in TextWrap.wrap(heading, width: max(10, width)) { rows.append(.heading(line, style)) }
            for id in group.members {
                let chain = groups.chains[id] ?? []
                if id == group.root {
                    // Every group's root says so, also where nothing waits for it yet.
                    rows.append(.operation(id, "the cause itself"))
                } else if group.cause == .running {
                    // Each waits on its own running dependency: name it.
                    rows.append(.operation(id, "waits on " + chain.dropFirst().map(\.description).joined(separator: " → ")))
                } else {
                    let via = chain.count > 2 ? "via " + chain.dropFirst().dropLast().map(\.description).joined(separator: " → ") : ""
                    rows.append(.operation(id, via))
                }
            }
        }
        return rows
    }
}
