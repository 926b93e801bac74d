import DashboardModel
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Issue 13, defects 1 and 2: confirmations default to no and act on exactly what they name;
/// `:` commands honour or refuse every argument; every queue can be chosen.
@Suite("UI: confirmations and command arguments")
struct CommandTests {
    let model = pipelineScript().model()

    private func run(_ line: String, _ dashboard: inout Interaction, model: DashboardModel? = nil) -> [Effect] {
        let model = model ?? self.model
        press([.character(":")] + keys(line), &dashboard, model)
        return press([.enter], &dashboard, model)
    }

    @Test("only y confirms: Enter, Esc, n and any other key decline and send nothing; a resize keeps the question")
    func onlyYes() {
        for key: Key in [.enter, .escape, .character("n"), .character("x"), .character(" "), .function(9), .tab, .character("q")] {
            var dashboard = board(model, select: 4)
            press([.character("c")], &dashboard, model)
            #expect(dashboard.handle(.resize, model: model) == [.redraw])
            guard case .confirm = dashboard.state.overlay else {
                Issue.record("the question went away on a resize")
                continue
            }
            let effects = dashboard.handle(key, model: model)
            #expect(effects.command == nil && !effects.quits, "\(key) answered yes")
            #expect(dashboard.state.overlay == nil && dashboard.state.status?.text == "nothing cancelled", "\(key)")
        }
        for yes in ["y", "Y"] {
            var dashboard = board(model, select: 4)
            press([.character("c")], &dashboard, model)
            #expect(dashboard.handle(.character(Character(yes)), model: model).command == .cancel(operations: [4]))
        }
    }

    @Test("C names the queue's unfinished operations and cancels exactly those: not one added since, not one finished since")
    func queueCancel() {
        var dashboard = board(model, select: 4)
        press([.character("C")], &dashboard, model)
        guard case .confirm(let confirmation) = dashboard.state.overlay else {
            Issue.record("no question")
            return
        }
        #expect(confirmation.question.hasPrefix("Cancel its 6 unfinished operations of q1 'net': #1 download-a, #2 download-b, #3 download-c and 3 more? (y/n)"))
        #expect(confirmation.command == .cancel(operations: [1, 2, 3, 4, 5, 10]), "the ids, not cancelAll")
        // While the question is open, #1 finishes and #12 joins the queue.
        var later = pipelineScript()
        later.finish(1)
        later.add(12, queue: 1, "late")
        let laterModel = later.model()
        let effects = dashboard.handle(.character("y"), model: laterModel)
        #expect(effects.command == .cancel(operations: [2, 3, 4, 5, 10]))
        #expect(dashboard.state.status?.text == "1 of them finished meanwhile; cancelling the rest")
        // The receipt, which replaces that line, still accounts for every operation named.
        dashboard.commandFinished(.success(CommandReceipt(message: "cancelled #2 #3 #4 #5 #10", operations: [2, 3, 4, 5, 10])))
        #expect(dashboard.state.status?.text == "cancelled #2 #3 #4 #5 #10; #1 had finished meanwhile")
        dashboard.commandFinished(.success(CommandReceipt(message: "cancelled #7", operations: [7])))
        #expect(dashboard.state.status?.text == "cancelled #7", "the note goes with its own command only")
    }

    @Test("another program at the source: an open question about the old one's operations closes, its tags go")
    func anotherProgramClosesTheQuestion() {
        var dashboard = board(model, select: 4)
        _ = press([.character(" "), .character("c")], &dashboard, model)
        guard case .confirm = dashboard.state.overlay else {
            Issue.record("no question")
            return
        }
        #expect(!dashboard.state.table.tagged.isEmpty)
        dashboard.forgetProgram()
        #expect(dashboard.state.overlay == nil)
        #expect(dashboard.state.table.tagged.isEmpty)
        #expect(dashboard.handle(.character("y"), model: model).command == nil, "a late y cancels nothing")
    }

    @Test("narration emptied by a seek back counts its times again from the next entry")
    func narrationOriginAfterForgetting() {
        var narration = NarrationState()
        narration.append([NarrationEntry(time: 5_000, text: "late"), NarrationEntry(time: 6_000, text: "later")])
        narration.forget(after: 5_500)
        #expect(narration.entries.map(\.text) == ["late"] && narration.origin == 5_000)
        narration.forget(after: 1_000)
        #expect(narration.entries.isEmpty && narration.origin == nil)
        narration.append([NarrationEntry(time: 2_000, text: "early")])
        #expect(narration.origin == 2_000)
    }

    @Test(":suspend, :resume and :max act on the queue they name (2, q2 or its name, any case), else on the selected one")
    func queueArguments() {
        var dashboard = board(model, select: 4)
        for (line, command) in [
            ("suspend 2", MonitorCommand.setSuspended(queue: QueueID(2), suspended: true)),
            ("suspend q2", .setSuspended(queue: QueueID(2), suspended: true)),
            ("suspend ui", .setSuspended(queue: QueueID(2), suspended: true)),
            ("suspend UI", .setSuspended(queue: QueueID(2), suspended: true)),
            ("suspend", .setSuspended(queue: QueueID(1), suspended: true)),
            ("resume q3", .setSuspended(queue: QueueID(3), suspended: false)),
            ("resume paused", .setSuspended(queue: QueueID(3), suspended: false)),
            ("max 3 q2", .setMaxConcurrency(queue: QueueID(2), count: 3)),
            ("max -1 ui", .setMaxConcurrency(queue: QueueID(2), count: -1)),
            ("max 3", .setMaxConcurrency(queue: QueueID(1), count: 3)),
        ] {
            #expect(run(line, &dashboard).command == command, ":\(line)")
        }
    }

    @Test("extra words, unknown queues and repeated options are refused with a message, and nothing is sent")
    func refusals() {
        var dashboard = board(model, select: 4)
        for (line, message) in [
            ("suspend 2 3", "no queue '2 3': give one queue as 2, q2 or its name (q1 net, q2 ui, q3 paused)"),
            ("suspend q9", "no queue 'q9': give one queue as 2, q2 or its name (q1 net, q2 ui, q3 paused)"),
            ("max 3 q2 now", "no queue 'q2 now': give one queue as 2, q2 or its name (q1 net, q2 ui, q3 paused)"),
            ("max", "usage: :max N [QUEUE] (N: 1...10000, or -1 for no limit)"),
            ("resume 1", "q1 'net' is already running"),
            ("suspend paused", "q3 'paused' is already suspended"),
            ("quit now", ":quit takes nothing after it"),
            ("help me", ":help takes nothing after it"),
            ("cancel 4 5", "usage: :cancel ID[,ID...] (ids joined by commas, no spaces)"),
            ("add download x3 x4", "the count given twice ('x3' and 'x4'): give it once"),
            ("add download qos=ui qos=bg", "qos given twice ('qos=ui' and 'qos=bg'): give it once"),
            ("add download after 4 after 5", "'after' given twice ('after 4' and 'after 5'): give it once"),
        ] {
            let effects = run(line, &dashboard)
            #expect(effects.command == nil && !effects.quits, ":\(line) was accepted")
            #expect(dashboard.state.status?.text == message && dashboard.state.status?.isError == true, ":\(line)")
        }
    }

    @Test("qos= and priority= take the names people type, in any case")
    func qualityNames() {
        var dashboard = board(model, select: 4)
        for (word, qos) in [("UI", QoSClass.userInteractive), ("ui", .userInteractive), ("ua", .userInitiated), ("in", .userInitiated),
                            ("init", .userInitiated), ("INIT", .userInitiated), ("def", .default), ("DEF", .default),
                            ("util", .utility), ("UTIL", .utility), ("bg", .background), ("BG", .background),
                            ("background", .background), ("Background", .background), ("userInitiated", .userInitiated),
                            ("USER-INITIATED", .userInitiated), ("user_interactive", .userInteractive)] {
            #expect(run("add download qos=\(word)", &dashboard).command == .addWork(WorkRequest(template: "download", qualityOfService: qos, queue: QueueID(1))),
                    "qos=\(word)")
        }
        for (word, priority) in [("vhigh", OperationPriority.veryHigh), ("HIGH", .high), ("norm", .normal), ("veryLow", .veryLow)] {
            #expect(run("add download priority=\(word)", &dashboard).command == .addWork(WorkRequest(template: "download", priority: priority, queue: QueueID(1))),
                    "priority=\(word)")
        }
    }

    @Test("every queue can be chosen, an empty one too: Tab to the queue lines, ↑ ↓, then s acts on it; a click chooses one")
    func emptyQueueSelectable() {
        var script = pipelineScript()
        script.queue(4, "empty", max: 2)
        let model = script.model()
        var dashboard = board(model, select: 4)
        press([.backTab], &dashboard, model)
        #expect(dashboard.state.focus == .queues)
        press([.down, .down, .down, .down], &dashboard, model)
        #expect(dashboard.state.queue == QueueID(4))
        #expect(press([.character("s")], &dashboard, model).command == .setSuspended(queue: QueueID(4), suspended: true))
        #expect(press([.character(")")], &dashboard, model).command == .setMaxConcurrency(queue: QueueID(4), count: 3))
        // Moving the operation selection does not take the chosen queue away until it moves.
        dashboard.keepSelectionValid(model)
        #expect(dashboard.state.queue == QueueID(4))
        // A click on a queue line chooses that queue.
        guard let row = dashboard.map.queueRows.first(where: { $0.queue == QueueID(2) }) else {
            Issue.record("no line for q2")
            return
        }
        press([.mouse(MouseEvent(.press, x: row.rect.x + 3, y: row.rect.y))], &dashboard, model)
        #expect(dashboard.state.queue == QueueID(2) && dashboard.state.focus == .queues)
        // Enter on a queue shows its operations.
        press([.enter], &dashboard, model)
        #expect(OperationRows.ids(model, dashboard.state) == [6, 11])
    }

    @Test("( on a queue with no limit sets the number running now and says so, and what the answer's 'default' was; ) says why it cannot")
    func firstLimit() {
        var script = EventScript()
        script.queue(1, "wide")
        for id in 1...3 { script.add(id, queue: 1, "job-\(id)") }
        script.start(1)
        script.start(2)
        let model = script.model()
        var dashboard = board(model, select: 1)
        press([.character(")")], &dashboard, model)
        #expect(dashboard.state.status?.text.hasPrefix("q1 has no concurrency limit (∞): nothing to raise; ( sets one at the number running now (2)") == true,
                "\(String(describing: dashboard.state.status))")
        let effects = press([.character("(")], &dashboard, model)
        #expect(effects.command == .setMaxConcurrency(queue: QueueID(1), count: 2))
        #expect(dashboard.state.status?.text == "max concurrency of q1 'wide': no limit (∞) → 2, the number running now")
        dashboard.commandFinished(.success(CommandReceipt(message: "q1 max concurrency 2 (was no limit)")))
        #expect(dashboard.state.status?.text == "q1 max concurrency 2 (was no limit); the number running now")
    }

    @Test("( on a queue with no limit and nothing running sets 1 and says it is the least limit, not '1: 0 running now'")
    func firstLimitWhenIdle() {
        var script = EventScript()
        script.queue(1, "idle")
        script.add(1, queue: 1, "job-1")
        let model = script.model()
        var dashboard = board(model, select: 1)
        let effects = press([.character("(")], &dashboard, model)
        #expect(effects.command == .setMaxConcurrency(queue: QueueID(1), count: 1))
        #expect(dashboard.state.status?.text == "max concurrency of q1 'idle': no limit (∞) → 1, the least limit, as none is running")
        dashboard.commandFinished(.success(CommandReceipt(message: "q1 max concurrency 1 (was no limit)")))
        let answer = dashboard.state.status?.text ?? ""
        #expect(answer == "q1 max concurrency 1 (was no limit); the least limit, as none is running")
        #expect(!answer.contains("0 running"), "\(answer)")
    }

    @Test("a tracked (sampled) queue takes s, ( and :max as an observed one does: the program answers, not the dashboard")
    func trackedQueueCommands() {
        var script = EventScript()
        script.emit(.queueAppeared(QueueInfo(id: QueueID(1), name: "plain", maxConcurrentOperationCount: 2, observation: .sampled)))
        script.add(1, queue: 1, "job")
        let model = script.model()
        var dashboard = board(model, select: 1)
        dashboard.state.queue = QueueID(1)
        #expect(press([.character("s")], &dashboard, model).command == .setSuspended(queue: QueueID(1), suspended: true))
        #expect(press([.character("(")], &dashboard, model).command == .setMaxConcurrency(queue: QueueID(1), count: 1))
        let typed = press([.character(":")] + keys("max 3") + [.enter], &dashboard, model)
        #expect(typed.command == .setMaxConcurrency(queue: QueueID(1), count: 3), "\(String(describing: dashboard.state.status))")
    }
}
