import DashboardModel
import DashboardUI
import Foundation
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Compares a screen with its recorded text in `__Snapshots__/NAME.txt`. With OPSCOPE_RECORD=1
/// the file is (re)written instead; a missing file fails the test (a fresh clone must have it).
func expectSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    let file = directory.appendingPathComponent(name + ".txt")
    if ProcessInfo.processInfo.environment["OPSCOPE_RECORD"] != nil {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? (text + "\n").write(to: file, atomically: true, encoding: .utf8)
        return
    }
    guard let recorded = try? String(contentsOf: file, encoding: .utf8) else {
        Issue.record("no snapshot \(name).txt: run with OPSCOPE_RECORD=1 to record it", sourceLocation: sourceLocation)
        return
    }
    #expect(text + "\n" == recorded, "screen \(name) differs from its snapshot", sourceLocation: sourceLocation)
}

/// A composed screen as text.
func screen(_ model: DashboardModel, _ interaction: Interaction, width: Int = 120, height: Int = 40,
            theme: Theme = Theme()) -> (Buffer, ScreenMap) {
    FrameComposer(theme: theme, caption: "pipeline: downloads feed parsing feeds a serial ui queue")
        .compose(model, interaction, width: width, height: height)
}

extension Array where Element == Effect {
    /// The command among the effects, if any.
    var command: MonitorCommand? {
        for effect in self { if case .command(let command) = effect { return command } }
        return nil
    }

    /// True when the effects end the session.
    var quits: Bool { contains(.quit) }
}

/// A dashboard on `model` with the pipeline's template, `id` selected, as the session starts it.
func board(_ model: DashboardModel, select id: OperationID? = 4) -> Interaction {
    var dashboard = Interaction(templates: [WorkTemplateInfo(name: "download", summary: "fetch a file (async)", queue: QueueID(1))])
    dashboard.state.selection = id
    dashboard.keepSelectionValid(model)
    return dashboard
}

/// Sends keys as the session does, drawing a frame after each (so that the screen map and the
/// row cache are the ones a person's next key meets).
@discardableResult
func press(_ keys: [Key], _ dashboard: inout Interaction, _ model: DashboardModel, width: Int = 120, height: Int = 40) -> [Effect] {
    var effects: [Effect] = []
    for key in keys {
        effects = dashboard.handle(key, model: model)
        dashboard.keepSelectionValid(model)
        dashboard.map = screen(model, dashboard, width: width, height: height).1
    }
    return effects
}

/// The characters of `text` as keys.
func keys(_ text: String) -> [Key] { text.map { Key.character($0) } }

/// The model after each event of `script`, with the dashboard narrating each event as the
/// session does (narration on): the narration log of that script.
func narrated(_ script: EventScript, into dashboard: inout Interaction) -> DashboardModel {
    var model = DashboardModel()
    dashboard.state.narration.isOn = true
    for event in script.events {
        model.apply(EventBatch(events: [event], droppedTotal: 0))
        dashboard.narrate([event], model: model)
    }
    return model
}
