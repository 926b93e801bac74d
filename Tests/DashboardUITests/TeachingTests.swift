import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Issue 13, "what a teacher missed": a sentence per change in the terms of the lessons, a log
/// of them, stepping that narrates, and each queue's start order in one place.
@Suite("UI: narration and the start order")
struct TeachingTests {
    /// The sentence for the last event of `script`, with the model after it.
    private func sentence(_ script: EventScript) -> String? {
        Narrator.narrate(script.events.last!, model: script.model())?.text
    }

    @Test("readiness: isReady → true names the dependency that finished last")
    func readiness() {
        var script = EventScript()
        script.queue(1, "work", max: 2)
        script.add(2, queue: 1, "load")
        script.add(3, queue: 1, "decode")
        script.add(4, queue: 1, "show", after: [2, 3])
        script.run(2)
        script.run(3)
        script.ready(4)
        #expect(sentence(script) == "#4 show isReady → true: its last dependency #3 decode finished")
        script.finish(4, cancelled: false)
        #expect(sentence(script) == "#4 show isFinished set while isExecuting was never true: a queue releases it, but its work never ran")
    }

    @Test("cancellation: the flag, the early finish without main(), a running operation that goes on")
    func cancellation() {
        var script = EventScript()
        script.queue(1, "work", max: 1)
        script.add(1, queue: 1, "long")
        script.start(1)
        script.add(2, queue: 1, "queued")
        script.cancel(2)
        #expect(sentence(script) == "#2 queued isCancelled → true: cancel() only sets the flag and makes it ready; it finishes when its queue starts it (that needs a free slot)")
        script.finish(2, cancelled: true)
        #expect(sentence(script) == "#2 queued isFinished set while isExecuting was never true: it was cancelled before it started, so start() finished it without calling main()")
        script.cancel(1)
        #expect(sentence(script) == "#1 long isCancelled → true while executing: cancel() only sets the flag; it runs on until its code checks isCancelled")
    }

    @Test("a cancelled running operation is said to stop only when it finished soon after the cancel")
    func cancelledFinishes() {
        var script = EventScript()
        script.queue(1, "tasks", max: 2)
        script.add(1, queue: 1, "stubborn")
        script.add(2, queue: 1, "polite")
        script.start(1)
        script.start(2)
        script.emit(.cancelled(operation: OperationID(1)), after: 1_500_000_000)
        script.cancel(2)
        script.finish(2, cancelled: true, after: 20_000_000)
        #expect(sentence(script) == "#2 polite isFinished → true after 1.5 s, 20 ms after cancel(): its work checked isCancelled and stopped early")
        script.finish(1, cancelled: true, after: 2_480_000_000)
        #expect(sentence(script) == "#1 stubborn isFinished → true after 4.0 s, 2.5 s after cancel(): its work ran on: it did not stop for isCancelled")
    }

    @Test("the lesson of async-right-wrong: main() that returns at once releases the dependents too early")
    func asynchronousMistake() {
        var script = EventScript()
        script.queue(1, "wrong", max: 2)
        script.add(1, queue: 1, "fetch-wrong")
        script.add(2, queue: 1, "use-wrong", after: [1])
        script.start(1)
        script.finish(1, after: 100_000)
        #expect(sentence(script) == "#1 fetch-wrong isFinished → true after 100 µs: main() returned at once; if it only started asynchronous work, #2 use-wrong now runs before that work is done")
        var right = EventScript()
        right.queue(1, "right", max: 2)
        right.add(1, queue: 1, "fetch-right", async: true)
        right.start(1)
        right.finish(1, after: 2_000_000_000)
        #expect(sentence(right) == "#1 fetch-right isFinished → true after 2.0 s: it called finish() when its asynchronous work ended")
    }

    @Test("queues: suspension holds ready work; a suspended queue's ready operation is said to be held")
    func queues() {
        var script = EventScript()
        script.queue(1, "paused", max: 1, suspended: true)
        script.add(1, queue: 1, "first")
        script.add(2, queue: 1, "second", after: [1])
        script.emit(.queueSuspended(queue: QueueID(1), suspended: false))
        #expect(sentence(script) == "q1 'paused' isSuspended → false: it starts its ready operations again, in start order")
        script.emit(.queueSuspended(queue: QueueID(1), suspended: true))
        script.run(1)
        script.ready(2)
        #expect(sentence(script) == "#2 second isReady → true: its last dependency #1 first finished; but q1 'paused' is suspended, so it is held")
    }

    @Test("narration is off until t; a flood is narrated by its last events with one line counting the rest")
    func narrateBatches() {
        let script = pipelineScript()
        let model = script.model()
        var dashboard = board(model)
        dashboard.narrate(script.events, model: model)
        #expect(dashboard.state.narration.entries.isEmpty && !dashboard.wantsNarration)
        press([.character("t")], &dashboard, model)
        #expect(dashboard.wantsNarration)
        dashboard.narrate(script.events, model: model)
        #expect(dashboard.state.narration.entries.count == script.events.count)
        var flood = EventScript()
        flood.queue(1, "many", max: 1)
        for id in 1...100 { flood.add(id, queue: 1, "op-\(id)") }
        let floodModel = flood.model()
        var fresh = board(floodModel)
        fresh.state.narration.isOn = true
        fresh.narrate(flood.events, model: floodModel)
        let entries = fresh.state.narration.entries
        #expect(entries.count == NarrationState.perBatch + 1)
        #expect(entries.first?.text == "… 61 earlier changes in this moment, too many to narrate")
        #expect(entries.last?.text.hasPrefix("#100 op-100 added to q1 'many'") == true)
        // The narration line shows the newest sentence.
        #expect(screen(floodModel, fresh).0.text.contains("» #100 op-100 added to q1 'many'"))
    }

    @Test("stepping narrates each event even with narration off; the line shows while paused")
    func stepping() {
        let script = pipelineScript()
        let model = script.model()
        var dashboard = board(model)
        press([.character("p")], &dashboard, model)
        dashboard.narrate(step: script.events[3], model: model)
        #expect(dashboard.state.narration.entries.count == 1)
        #expect(screen(model, dashboard).0.text.contains("» #1 download-a added to q1 'net'"))
        press([.character("p")], &dashboard, model)
        #expect(!screen(model, dashboard).0.text.contains("» #1 download-a"), "resumed: the stepping line goes")
    }

    @Test("the narration view lists the log, ↑ ↓ choose a sentence, Enter goes to its operation")
    func narrationView() {
        var dashboard = Interaction()
        let model = narrated(pipelineScript(), into: &dashboard)
        dashboard.keepSelectionValid(model)
        press([.character("4")], &dashboard, model)
        #expect(screen(model, dashboard).0.text.contains("#6 update-ui added to q2 'ui': isReady false until #4 parse-a, #5 parse-b finish"))
        press([.up, .up], &dashboard, model)
        #expect(dashboard.state.narration.cursor == dashboard.state.narration.entries.count - 3)
        press([.enter], &dashboard, model)
        #expect(dashboard.state.screen == .overview && dashboard.state.selection == 11 && dashboard.state.details != nil)
    }

    @Test("an operation added not ready with no dependency: the narration says its own condition holds it, not just isReady false")
    func narrationOwnCondition() {
        var script = EventScript()
        script.queue(1, "sync", max: 2)
        script.add(1, queue: 1, "upload-when-online-1", ready: false)
        script.add(2, queue: 1, "upload", ready: false)
        script.add(3, queue: 1, "apply-update", after: [2])
        // The gate opens and the queue is told: the bridge infers the change from the start.
        script.emit(.ready(operation: OperationID(1), isReady: true), source: .inferred)
        script.start(1, after: 0)
        var dashboard = Interaction()
        _ = narrated(script, into: &dashboard)
        let texts = dashboard.state.narration.entries.map(\.text)
        #expect(texts.contains("#1 upload-when-online-1 isReady → true: its own condition is met (inferred: not seen directly)"), "\(texts)")
        #expect(texts.contains("#1 upload-when-online-1 added to q1 'sync': isReady false, though it has no dependency: "
                               + "a condition of its own holds it, and the queue must be told when that changes"), "\(texts)")
        #expect(texts.contains("#3 apply-update added to q1 'sync': isReady false until #2 upload finishes"), "dependencies: as before")
    }

    @Test("priorities: a job that finds a slot free starts at once; one that waited is said to go by the priority its QoS gave it")
    func narrationPriorities() {
        var script = EventScript()
        script.queue(1, "jobs", max: 2)
        script.add(1, queue: 1, "job-1", priority: .veryLow)
        script.start(1, after: 1_000)
        var plain = EventScript()
        plain.queue(1, "sync", max: 2)
        plain.add(1, queue: 1, "upload")
        plain.start(1, after: 1_000)
        #expect(sentence(plain)?.contains("priority") == false, "no priority in play: nothing said of it")
        #expect(sentence(script)?.hasSuffix("; a slot was free as it became ready, so it started at once: priority orders only the work that waits") == true,
                "\(sentence(script) ?? "")")
        script.add(2, queue: 1, "job-2", priority: .normal, effective: .veryHigh, qos: .userInteractive)
        script.add(3, queue: 1, "job-3", priority: .low)
        script.add(4, queue: 1, "job-4", priority: .low)
        script.start(3, after: 1_000)
        script.finish(1, after: 600_000_000)
        script.start(2, after: 1_000)
        let waited = sentence(script) ?? ""
        #expect(waited.hasSuffix("; scheduled as veryHigh: with no queuePriority set, Foundation on Linux takes its qualityOfService (userInteractive) for one"),
                "\(waited)")
        // A serial queue is FIFO: nothing is said of priorities there.
        var serial = EventScript()
        serial.queue(1, "one", max: 1)
        serial.add(1, queue: 1, "a")
        serial.start(1)
        #expect(sentence(serial)?.contains("priority") == false)
    }

    @Test("an operation added not ready whose dependencies all finished: the narration gives the reason, never a bare isReady false")
    func narrationFinishedDependencies() {
        var script = EventScript()
        script.queue(1, "wrong", max: 2)
        script.add(1, queue: 1, "wrong-async-1", async: true)
        script.start(1)
        script.finish(1)
        script.add(2, queue: 1, "use-wrong-1", after: [1], ready: false)
        let text = sentence(script) ?? ""
        #expect(text == "#2 use-wrong-1 added to q1 'wrong': isReady false though #1 wrong-async-1 finished: Foundation counts a "
                    + "dependency finished only when told (its isFinished notification), or a condition of its own holds it", "\(text)")
        #expect(!text.hasSuffix("isReady false"))
    }

    @Test("Home in the narration view shows the first page of the log, not its first entry alone")
    func narrationHome() {
        var dashboard = Interaction()
        let model = narrated(pipelineScript(), into: &dashboard)
        press([.character("4"), .home], &dashboard, model)
        #expect(dashboard.state.narration.cursor == 0)
        let text = screen(model, dashboard).0.text
        #expect(text.contains("q1 'net' observed"))
        #expect(text.contains("#6 update-ui added to q2 'ui'"), "the entries after the first fill the page")
    }

    @Test("a narration sentence longer than the line takes a second one where the terminal has 30 rows")
    func narrationLineWraps() {
        var dashboard = Interaction()
        let model = narrated(pipelineScript(), into: &dashboard)
        dashboard.state.narration.append([NarrationEntry(time: model.now, text: "#1 download-a isExecuting → true: q1 'net' started it "
            + "(2 of 2 slots busy): asynchronous, it stays executing until it calls finish()")])
        let tall = screen(model, dashboard, width: 80, height: 30).0.text.split(separator: "\n").map(String.init)
        let first = tall.firstIndex { $0.hasPrefix("» #1 download-a isExecuting") }
        #expect(first.map { tall[$0 + 1].contains("until it calls finish()") } == true, "\(tall.joined(separator: "\n"))")
        let short = screen(model, dashboard, width: 80, height: 24).0.text.split(separator: "\n").map(String.init)
        #expect(short.contains { $0.hasPrefix("» #1 download-a") && $0.hasSuffix("…") }, "24 rows: one line, cut")
    }

    @Test("the start order view: running, next in order, held by a suspended queue, waiting on dependencies")
    func startOrder() {
        let model = pipelineScript().model()
        #expect(StartOrderList.build(model) == [
            .queue(QueueID(1)), .operation(1, .executing), .operation(2, .executing), .operation(3, .next(1)), .operation(10, .next(2)),
            .operation(4, .waiting), .operation(5, .waiting),
            .queue(QueueID(2)), .operation(6, .waiting),
            .queue(QueueID(3)), .operation(7, .held(1)), .operation(8, .waiting), .operation(9, .waiting),
        ])
        var dashboard = board(model, select: 1)
        press([.character("3"), .down, .down], &dashboard, model)
        #expect(dashboard.state.selection == 3)
        let text = screen(model, dashboard).0.text
        #expect(text.contains("#3 download-c (high)") && text.contains("starts next") && text.contains("held (1st once resumed)"))
    }
}
