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

/// A small program's state: a network queue feeding a serial UI queue, one of each state, a
/// suspended queue, a cycle and a cancelled operation. Time is fixed (an injected clock).
func pipelineScript() -> EventScript {
    var script = EventScript()
    script.queue(1, "net", max: 2)
    script.queue(2, "ui", max: 1)
    script.queue(3, "paused", suspended: true)
    script.add(1, queue: 1, "download-a", qos: .utility, async: true)
    script.add(2, queue: 1, "download-b", qos: .utility, async: true)
    script.add(3, queue: 1, "download-c", priority: .high, qos: .utility, async: true)
    script.add(4, queue: 1, "parse-a", after: [1], qos: .utility)
    script.add(5, queue: 1, "parse-b", after: [2], qos: .utility)
    script.add(6, queue: 2, "update-ui", after: [4, 5], qos: .userInitiated)
    script.start(1)
    script.start(2)
    script.add(7, queue: 3, "thumbnail", qos: .background)
    script.add(8, queue: 3, "index", after: [9], qos: .background)
    script.add(9, queue: 3, "reindex", after: [8], qos: .background)
    script.add(10, queue: 1, "prefetch", qos: .utility)
    script.cancel(10)
    script.add(11, queue: 2, "log", qos: .userInitiated)
    script.start(11)
    script.finish(11, after: 40_000_000)
    return script
}

/// A composed screen as text.
func screen(_ model: DashboardModel, _ dashboard: Dashboard, width: Int = 120, height: Int = 40,
            theme: Theme = Theme()) -> (Buffer, ScreenMap) {
    DashboardScreen(theme: theme, caption: "pipeline: downloads feed parsing feeds a serial ui queue")
        .compose(model, dashboard, width: width, height: height)
}
