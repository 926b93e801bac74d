import DashboardModel
import OperationEvents
import TerminalKit

/// View 3: each queue's start order, as Foundation will start its operations.
struct StartOrderScreen: ScreenView {
    let text = ScreenText(.startOrder, title: "start order",
                          keyHelp: "view: each queue's start order",
                          summary:
                              "start order: each queue's running operations, the ready ones in the order Foundation will start them (or held while it "
                              + "is suspended; `ready, not started` when the queue has had room for a while and has not started one), and those "
                              + "waiting on dependencies")

    func listedOperations(_ model: DashboardModel, _ interaction: inout Interaction) -> [OperationID] {
        StartOrderList.build(model).compactMap { row in
            if case .operation(let id, _) = row { return id }
            return nil
        }
    }

    func render(_ model: DashboardModel, _ interaction: Interaction, theme: Theme, warnings: [Warning],
                into buffer: inout Buffer, area: Rect, map: inout ScreenMap) {
        let list = ListScreen(theme: theme)
        guard let inner = list.frame(self, into: &buffer, area: area, map: &map) else { return }
        list.draw(rows(model, theme: theme), model, interaction, into: &buffer, area: inner, map: &map, empty: "no queue observed yet")
    }

    private func rows(_ model: DashboardModel, theme: Theme) -> [ListScreen.Row] {
        StartOrderList.build(model).map { row in
            switch row {
            case .queue(let id):
                guard let queue = model.queues[id] else { return .heading("\(id)", theme.header) }
                var text = "\(id) \(queue.name)   run \(queue.executing)/\(theme.limit(queue))  ready \(queue.ready)  pending \(queue.pending)"
                if queue.isSuspended { text += "   SUSPENDED: the ready ones are held" }
                if queue.observation == .sampled { text += "   sampled: short work is not seen" }
                return .heading(text, queue.isSuspended ? theme.warning.with(.underline) : theme.header.with(.underline))
            case .noQueue:
                return .heading("not in any queue: nothing starts these unless the app does", theme.error)
            case .operation(let id, let role):
                switch role {
                case .executing: return .operation(id, "running")
                // Foundation's order, unless the queue has long had the room and not started it:
                // it does not see it ready, and "starts next" would never come true.
                case .next where model.isReadyNotStarted(id): return .operation(id, "ready, not started: queue not told?")
                case .next(let place): return .operation(id, place == 1 ? "starts next" : "starts \(ordinal(place))")
                case .held(let place): return .operation(id, "held (\(ordinal(place)) once resumed)")
                case .waiting where model.operations[id]?.queue == nil:
                    return .operation(id, "never added to a queue")
                case .waiting:
                    let open = model.operations[id]?.dependencies.filter { (model.operations[$0]?.state ?? .finished) != .finished } ?? []
                    return .operation(id, open.isEmpty ? "waiting" : "waits on " + open.prefix(4).map(\.description).joined(separator: ", ")
                                          + (open.count > 4 ? " and \(open.count - 4) more" : ""))
                }
            }
        }
    }

    private func ordinal(_ number: Int) -> String {
        let suffix = (11...13).contains(number % 100) ? "th" : (number % 10 == 1 ? "st" : number % 10 == 2 ? "nd" : number % 10 == 3 ? "rd" : "th")
        return "\(number)\(suffix)"
    }
}
