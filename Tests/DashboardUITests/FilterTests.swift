import DashboardModel
import DashboardUI
import Foundation
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Issue 13, defect 8 and the monitoring list: the `/` filter (syntax, incremental, applied
/// once per frame) and the editing keys of the `:` and `/` lines.
@Suite("UI: the filter and the line editor")
struct FilterTests {
    let model = pipelineScript().model()

    private func rows(_ filter: String) -> [OperationID] {
        var state = ViewState()
        state.table.filter = filter
        return OperationRows.ids(model, state)
    }

    @Test("syntax: words, key:value, !negation, a|b and a,b alternatives, ids, qos short names")
    func syntax() {
        #expect(rows("download") == [1, 2, 3])
        #expect(rows("!state:finished") == Array(1...10).map { OperationID($0) })
        #expect(rows("state:ready|executing") == [1, 2, 3, 7, 10])
        #expect(rows("state:ready,executing") == [1, 2, 3, 7, 10])
        #expect(rows("state:ready|executing !queue:net") == [7])
        #expect(rows("queue:q2") == [6, 11])
        #expect(rows("qos:UI") == [])
        #expect(rows("qos:init") == [6, 11])
        #expect(rows("qos:BG") == [7, 8, 9])
        #expect(rows("#4") == [4])
        #expect(rows("id:4|5") == [4, 5])
        #expect(rows("name:PARSE") == [4, 5], "letters in any case")
        #expect(rows("state:cancelled") == [10])
        #expect(rows("state:") == rows(""), "a key typed without its value yet lets everything through")
    }

    @Test("an unknown key or value is an error that names it, shown where the rows would be")
    func errors() {
        var state = ViewState()
        state.table.filter = "colour:red"
        let cache = OperationRows.rows(model, state.table, reusing: RowCache())
        #expect(cache.ids.isEmpty)
        #expect(cache.error == "unknown filter key 'colour': use state: queue: qos: name: type: id: why: (or plain words)")
        var dashboard = board(model)
        dashboard.state.table.filter = "why:bored"
        let text = screen(model, dashboard, width: 200, height: 60).0.text
        #expect(text.contains("no reason 'bored': use deps, suspended, limit, turn, noqueue, cycle, cancelled, notready, condition,"),
                "shown where the rows would be")
        var bored = ViewState.TableState()
        bored.filter = "why:bored"
        #expect(OperationRows.rows(model, bored, reusing: RowCache()).error
                == "no reason 'bored': use deps, suspended, limit, turn, noqueue, cycle, cancelled, notready, condition, notstarted, stuck",
                "every reason the help lists, notstarted too")
        #expect(OperationRows.rows(model, { var table = ViewState.TableState(); table.filter = "state:zz"; return table }(), reusing: RowCache()).error
                == "no state 'zz': use pending, ready, executing, finished, cancelled, live")
    }

    @Test("by diagnosis: why:cycle, why:suspended, why:deps, why:stuck")
    func byDiagnosis() {
        #expect(rows("why:cycle") == [8, 9])
        #expect(rows("why:suspended") == [7])
        #expect(rows("why:deps") == [4, 5, 6])
        #expect(rows("why:stuck") == [7, 8, 9])
        #expect(rows("!why:stuck state:pending") == [4, 5, 6])
    }

    @Test("typed further, the filter narrows the last rows (once they are few) instead of going over every operation, with the same result")
    func incremental() {
        var dashboard = board(model)
        press([.character("/")], &dashboard, model)
        var previous = dashboard.map.rows.evaluations
        var narrowed = 0
        for (index, character) in "parse-a".enumerated() {
            let before = dashboard.map.rows.ids.count
            press([.character(character)], &dashboard, model)
            #expect(dashboard.map.rows.evaluations == previous + 1, "one evaluation per frame")
            previous = dashboard.map.rows.evaluations
            // Looking rows up one by one pays only while they are at most half the operations.
            if index > 0, before * 2 <= model.operations.count {
                #expect(dashboard.map.rows.incremental, "'\(character)' narrowed")
                narrowed += 1
            }
            #expect(dashboard.map.rows.ids == OperationRows.ids(model, dashboard.state))
        }
        #expect(narrowed >= 4)
        #expect(dashboard.map.rows.ids == [4])
        press([.backspace], &dashboard, model)
        #expect(!dashboard.map.rows.incremental, "a shorter filter can match more: evaluated in full")
        #expect(dashboard.map.rows.ids == [4, 5])
    }

    @Test("incremental and full evaluation agree on random models and filters typed character by character")
    func incrementalAgrees() {
        let seed = SeededRandom.seed(default: 1_313, environment: ProcessInfo.processInfo.environment)
        var random = SeededRandom(seed: seed)
        let words = ["parse", "download", "state:re", "state:pending", "queue:net", "!state:fin", "name:x", "qos:ut", "type:op",
                     "1", "#1", "id:3", "why:deps", "state:ready|exec", "!dl", "q", "ex"]
        for round in 0..<20 {
            var script = EventScript()
            for queue in 1...3 { script.queue(queue, ["net", "parse", "ui"][queue - 1], max: 2, suspended: queue == 3 && round % 2 == 0) }
            let count = Int.random(in: 20...80, using: &random)
            for id in 1...count {
                let dependencies = id > 3 && Bool.random(using: &random) ? [Int.random(in: 1..<id, using: &random)] : []
                script.add(id, queue: Int.random(in: 1...3, using: &random), ["download", "parse", "update", "x"].randomElement(using: &random)! + "-\(id)",
                           after: dependencies, qos: QoSClass.allCases.randomElement(using: &random)!)
            }
            for id in 1...count where Int.random(in: 0..<4, using: &random) == 0 { script.run(id) }
            let model = script.model()
            var dashboard = board(model, select: 1)
            let filter = (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            press([.character("/")], &dashboard, model)
            for character in filter {
                press([.character(character)], &dashboard, model)
                #expect(dashboard.map.rows.ids == OperationRows.ids(model, dashboard.state),
                        "seed \(seed), round \(round), filter '\(dashboard.state.table.filter)'")
            }
        }
    }

    @Test("a filter change keeps the selection: hidden, it moves to the first row; shown again, it comes back")
    func keepsSelection() {
        var dashboard = board(model, select: 7)
        press([.character("/")] + keys("state:re"), &dashboard, model)
        #expect(dashboard.state.selection == 7, "#7 is ready: it stays")
        press(keys("ady|exec"), &dashboard, model)
        #expect(dashboard.state.selection == 7)
        press([.control("u")] + keys("state:pend"), &dashboard, model)
        #expect(dashboard.state.selection == 4, "hidden: the first row")
        press([.control("u")] + keys("state:"), &dashboard, model)
        #expect(dashboard.state.selection == 7, "shown again: it comes back")
        press([.enter, .down], &dashboard, model)
        #expect(dashboard.state.selection != 7, "a choice of the person's replaces it")
    }

    @Test("the line editor: ← → Home End, Backspace and Delete at the cursor, Ctrl-U, Ctrl-W, and history on ↑ ↓")
    func lineEditing() {
        var line = LineInput(.command)
        func apply(_ keys: [Key], history: [String] = []) {
            for key in keys { _ = line.edit(key, history: history, maximumLength: 256) }
        }
        apply(DashboardUITests.keys("add download"))
        apply([.left, .left, .left, .left, .left, .left, .left, .left] + DashboardUITests.keys("big "))
        #expect(line.text == "add big download" && line.cursor == 8)
        apply([.home] + DashboardUITests.keys(":") + [.end] + DashboardUITests.keys(" x2"))
        #expect(line.text == ":add big download x2")
        apply([.home, .delete, .right, .right, .right, .backspace])
        #expect(line.text == "ad big download x2" && line.cursor == 2)
        apply([.end, .control("w")])
        #expect(line.text == "ad big download ")
        apply([.control("w")])
        #expect(line.text == "ad big ")
        apply([.left, .control("u")])
        #expect(line.text == " " && line.cursor == 0)
        // History: ↑ older, ↓ newer, past the newest the line as it was.
        line = LineInput(.command, text: "draft")
        let history = ["max 3", "suspend 2"]
        apply([.up], history: history)
        #expect(line.text == "suspend 2")
        apply([.up], history: history)
        #expect(line.text == "max 3")
        apply([.up], history: history)
        #expect(line.text == "max 3", "the oldest stays")
        apply([.down, .down], history: history)
        #expect(line.text == "draft")
    }

    @Test("the lines keep a history each, entered lines only; a long line scrolls to keep the cursor in view")
    func historyAndScroll() {
        var dashboard = board(model)
        press([.character(":")] + keys("max 3 q2") + [.enter], &dashboard, model)
        press([.character("/")] + keys("parse") + [.enter], &dashboard, model)
        press([.character(":"), .up], &dashboard, model)
        #expect(dashboard.state.input?.text == "max 3 q2")
        press([.escape, .character("/"), .control("u"), .up], &dashboard, model)
        #expect(dashboard.state.input?.text == "parse")
        press([.escape], &dashboard, model)
        // 60 characters in a 40-column terminal: the end shows, the start is cut (marked).
        let long = "add download after 1,2,3,4,5,6,7,8,9 qos=utility priority=low"
        press([.character(":")] + keys(long), &dashboard, model, width: 40, height: 12)
        let status = screen(model, dashboard, width: 40, height: 12).0.lines()[10]
        #expect(status.hasPrefix(":…") && status.hasSuffix("priority=low"), "\(status)")
        press([.home], &dashboard, model, width: 40, height: 12)
        let start = screen(model, dashboard, width: 40, height: 12).0.lines()[10]
        #expect(start.hasPrefix(":add download after") && start.hasSuffix("…"), "\(start)")
    }

    @Test("a filter for an operation dropped after its retention says it finished and was dropped, not only that nothing matches")
    func droppedOperation() {
        var script = EventScript()
        script.queue(1, "work")
        script.add(1, queue: 1, "early")
        script.add(2, queue: 1, "later")
        script.run(1)
        var configuration = ModelConfiguration()
        configuration.finishedRetention = 1_000_000_000
        var model = script.model(configuration)
        model.advance(to: model.now + 2_000_000_000)
        #expect(!model.operations.contains(1))
        var dashboard = board(model, select: 2)
        press([.character("/")] + keys("#1") + [.enter], &dashboard, model)
        #expect(dashboard.state.status?.text == "#1 finished and was dropped from the list: finished operations stay 1 s (at most 5000); 1 dropped so far",
                "\(String(describing: dashboard.state.status))")
        press([.character("/")] + [.control("u")] + keys("id:77") + [.enter], &dashboard, model)
        #expect(dashboard.state.status?.text == "no operation #77 is held (ids held go up to #2)")
        press([.character("/")] + [.control("u")] + keys("#2") + [.enter], &dashboard, model)
        let text = dashboard.state.status?.text ?? ""
        #expect(!text.hasPrefix("#2 finished") && !text.hasPrefix("no operation #2"), "a held id says nothing: \(text)")
    }
}
