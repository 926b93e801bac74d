import DashboardModel
import OperationEvents
import TerminalKit

/// A whole-screen view: its digit, its names, the operations it lists, how it draws and how it
/// answers the keys that mean something different in each view (↑ ↓, Enter, a click on a row).
///
/// A view is one type adopting this protocol plus its case in `ViewState.Screen`: the digit
/// keys, the key bar's `1-N`, the help's list of views and docs/keys-and-views.md's view table all come from
/// that list.
protocol ScreenView: Sendable {
    /// Which view this is and what it is called.
    var text: ScreenText { get }

    /// The operations the view lists, top to bottom: what ↑ ↓ go through there and the order in
    /// which `n` visits the stuck ones.
    func listedOperations(_ model: DashboardModel, _ interaction: inout Interaction) -> [OperationID]
    /// Draws the view into `area`, noting in `map` where things went (`warnings`: the model's,
    /// computed once for the frame).
    func render(_ model: DashboardModel, _ interaction: Interaction, theme: Theme, warnings: [Warning],
                into buffer: inout Buffer, area: Rect, map: inout ScreenMap)
    /// The view was just switched to.
    func shown(_ interaction: inout Interaction)
    /// ↑ ↓ and the page keys.
    func move(by delta: Int, _ interaction: inout Interaction, _ model: DashboardModel)
    /// Enter.
    func enter(_ interaction: inout Interaction, _ model: DashboardModel) -> [Effect]
    /// A click on one of the rows the view drew (`map.list.rows`).
    func click(_ row: ListRowArea, _ interaction: inout Interaction, _ model: DashboardModel)
}

extension ScreenView {
    func shown(_ interaction: inout Interaction) {}

    /// Through the listed operations: from outside the list, down enters at the top and up at
    /// the bottom.
    func move(by delta: Int, _ interaction: inout Interaction, _ model: DashboardModel) {
        let ids = listedOperations(model, &interaction)
        guard !ids.isEmpty else { return }
        let current = interaction.state.selection.flatMap { ids.firstIndex(of: $0) } ?? (delta > 0 ? -1 : ids.count)
        interaction.select(ids[min(max(0, current.addingClamped(delta)), ids.count - 1)], model)
    }

    /// Goes to the selected operation in the overview.
    func enter(_ interaction: inout Interaction, _ model: DashboardModel) -> [Effect] {
        guard let id = interaction.state.selection else { return [] }
        return interaction.reveal(id, model)
    }

    /// Selects the row's operation.
    func click(_ row: ListRowArea, _ interaction: inout Interaction, _ model: DashboardModel) {
        if let id = row.operation { interaction.select(id, model) }
    }
}

/// What a view is called, where: its frame and help, the list of views a list view's frame
/// gives, the key table, the view table of docs/keys-and-views.md.
struct ScreenText: Sendable {
    /// Which view this is (its digit).
    let screen: ViewState.Screen
    /// The view's name in its frame and in help.
    let title: String
    /// The view's name in the list of views a list view's frame gives (`2 stuck`).
    let shortName: String
    /// What the digit key does, for the key table and help.
    let keyHelp: String
    /// What the view shows, for the view table of docs/keys-and-views.md.
    let summary: String

    init(_ screen: ViewState.Screen, title: String, shortName: String? = nil, keyHelp: String, summary: String) {
        self.screen = screen
        self.title = title
        self.shortName = shortName ?? title
        self.keyHelp = keyHelp
        self.summary = summary
    }
}

/// The whole-screen views, in digit order.
package enum ScreenViews {
    /// Every view; the first is digit 1.
    static let all: [any ScreenView] = ViewState.Screen.allCases.map(\.view)

    /// The digits' range as the key bar shows it (`1-5`).
    static var digitRange: String { "1-\(all.count)" }

    /// The views as a Markdown table (docs/keys-and-views.md's view table is this text).
    package static func markdownTable() -> String {
        var lines = ["| key | view |", "|---|---|"]
        for view in all { lines.append("| `\(view.text.screen.rawValue)` | \(view.text.summary) |") }
        return lines.joined(separator: "\n")
    }
}

extension ViewState {
    /// A whole-screen view, by its digit: the one list of the views there are. A new view is a
    /// type adopting `ScreenView` and its case here.
    public enum Screen: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// Queues, table, graph, lanes and warnings.
        case overview = 1
        /// Waiting operations grouped under what they wait for.
        case stuck
        /// Each queue's start order: running, next in line, held, waiting on dependencies.
        case startOrder
        /// The narration log, newest last.
        case narration
        /// Each queue's operations as bars over time.
        case timeline

        /// The view's type.
        var view: any ScreenView {
            switch self {
            case .overview: OverviewScreen()
            case .stuck: StuckScreen()
            case .startOrder: StartOrderScreen()
            case .narration: NarrationScreen()
            case .timeline: TimelineScreen()
            }
        }

        /// The view's name in its frame and in help.
        public var title: String { view.text.title }

        /// The view's short name (`stuck`, `start order`): in the list of views a list view's
        /// frame gives, and (with `-` for spaces) the config file's `view` value.
        package var shortName: String { view.text.shortName }

        /// The view's digit and title.
        public var description: String { "\(rawValue) \(title)" }
    }
}
