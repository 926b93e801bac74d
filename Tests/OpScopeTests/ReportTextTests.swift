import Foundation
import OpScope
import Testing

/// The text report as a program that renders it reads it (tried as a new user would): no exit
/// status that is not the program's, names that cannot break the layout, cancels and cycle
/// names shown, and a verdict that names the work a suspended queue holds.
@Suite("Report text: what ReportText.render prints")
struct ReportTextTests {
    /// A report decoded from the JSON of the schema in docs/report.md: the queues and operations given, with
    /// the diagnoses, warnings and cycles given.
    private func report(queues: [String], operations: [String], cycles: String = "[]", diagnoses: String = "[]",
                        warnings: String = "[]") throws -> OpScopeReport {
        let json = """
            {"time":1000,"droppedEvents":0,"trimmed":0,"cycles":\(cycles),"diagnoses":\(diagnoses),"warnings":\(warnings),
             "queues":[\(queues.joined(separator: ","))],"operations":[\(operations.joined(separator: ","))]}
            """
        return try JSONDecoder().decode(OpScopeReport.self, from: Data(json.utf8))
    }

    private func queue(_ id: Int, _ name: String, suspended: Bool = false, pending: Int = 0, finished: Int = 0, cancelled: Int = 0) -> String {
        let none = #"{"count":0,"p50":0,"p90":0,"p99":0}"#
        return """
            {"cancelled":\(cancelled),"executing":0,"finished":\(finished),"id":\(id),"maxConcurrent":1,"name":\(quoted(name)),\
            "observation":"observed","pending":\(pending),"released":false,"run":\(none),"suspended":\(suspended),"trimmed":0,"wait":\(none)}
            """
    }

    private func operation(_ id: Int, _ name: String, queue: Int, state: String = "pending", dependencies: [Int] = []) -> String {
        """
        {"addedAt":1,"asynchronous":false,"cancelled":false,"dependencies":\(dependencies),"effectivePriority":"normal","id":\(id),\
        "name":\(quoted(name)),"priority":"normal","qos":"default","queue":\(queue),"state":"\(state)"}
        """
    }

    private func quoted(_ text: String) -> String { String(decoding: try! JSONEncoder().encode(text), as: UTF8.self) }

    @Test("the verdict carries no exit status: that belongs to the opscope report command alone")
    func noExitStatus() throws {
        let cycle = try report(queues: [queue(1, "cyc", pending: 2)],
                               operations: [operation(6, "G", queue: 1, dependencies: [7]), operation(7, "F", queue: 1, dependencies: [6])],
                               cycles: "[[6,7,6]]")
        #expect(cycle.hasProblem)
        let text = ReportText.render(cycle)
        #expect(text.hasSuffix("\nResult: problems found"), "\(text)")
        #expect(!text.contains("exit status"), "\(text)")
    }

    @Test("names with a line break, a tab or a terminal escape stay on their line, inert")
    func escapedNames() throws {
        let evil = "net\n  ! fake warning\t\u{1B}[2J"
        let diagnosis = ##"[{"blockers":[],"chainLength":1,"kind":"waitingForTurn","message":"#1 "## + quoted(evil).dropFirst().dropLast()
            + ##" is next","operation":1}]"##
        let text = ReportText.render(try report(queues: [queue(1, evil, pending: 1)], operations: [operation(1, evil, queue: 1)],
                                                diagnoses: diagnosis))
        #expect(!text.contains("\u{1B}") && !text.contains("\t"), "\(text)")
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("  ! fake") }, "\(text)")
        let lines = text.split(separator: "\n")
        #expect(lines.count == 6, "Queues, the queue, Operations, the heading and the diagnosis, the result: \(text)")
    }

    @Test("a queue's cancels are shown beside its finishes; a cycle names its operations")
    func cancelsAndCycleNames() throws {
        let text = ReportText.render(try report(
            queues: [queue(1, "cancel", finished: 3, cancelled: 2), queue(2, "cyc", pending: 2)],
            operations: [operation(6, "G-cyc", queue: 2, dependencies: [7]), operation(7, "F-cyc", queue: 2, dependencies: [6])],
            cycles: "[[6,7,6]]"))
        #expect(text.contains("  q1 cancel: running 0/1, ready 0, pending 0, finished 3 (2 cancelled)\n"), "\(text)")
        // A report written before `ready` was kept reads as none ready: its waiting count is pending.
        #expect(text.contains("  q2 cyc: running 0/1, ready 0, pending 2, finished 0\n"), "\(text)")
        #expect(text.contains("\n  #6 G-cyc -> #7 F-cyc -> #6 G-cyc\n"), "\(text)")
    }

    @Test("work held by a suspended queue is named in the verdict, which no longer says nothing is stuck")
    func heldWork() throws {
        let held = try report(queues: [queue(2, "paused", suspended: true, pending: 3)],
                              operations: (1...3).map { operation($0, "p\($0)", queue: 2, state: "ready") },
                              warnings: #"[{"kind":"suspendedQueueWithWork","message":"queue q2 'paused' is suspended","operation":1,"queue":2}]"#)
        #expect(!held.hasProblem, "programs suspend queues on purpose")
        let text = ReportText.render(held)
        #expect(text.hasSuffix("\nResult: no cycle, no operation that cannot progress on its own; 3 operations held by suspended queue q2 'paused' "
                               + "(they start once it is resumed)"), "\(text)")
    }
}
