import DashboardModel
import OpScopeTestSupport
import OperationEvents
import Testing

/// One classification of why work is stuck: the report's exit status, the operations `n`
/// visits, the graph's marks and the warnings all read `StuckCause`.
@Suite("Model: the causes of stuck work")
struct StuckCauseTests {
    @Test("a cancelled operation still executing is stuck for the dashboard and a problem for the report")
    func cancelledStillExecuting() throws {
        var configuration = ModelConfiguration()
        configuration.cancelledStillExecuting = 1_000_000_000
        var script = EventScript()
        script.queue(1, "q", max: 1)
        script.add(1, queue: 1, "stubborn")
        script.start(1)
        script.cancel(1)
        script.add(2, queue: 1, "after", after: [1])
        var model = DashboardModel(configuration: configuration)
        model.apply(EventBatch(events: script.events, droppedTotal: 0))
        #expect(!model.report().hasProblem, "cancelled a moment ago: it may be on its way out")
        #expect(model.stuckOperations().isEmpty)

        // Past the threshold, well short of the long-running one: it ignores isCancelled.
        model.advance(to: script.time + 2_000_000_000)
        #expect(model.warnings().map(\.kind) == [.cancelledStillExecuting])
        #expect(model.report().hasProblem, "the program asked it to stop and it did not")
        #expect(model.stuckOperations() == [OperationID(1), OperationID(2)], "its dependent waits for its finish")
    }

    @Test("a suspended queue holds stuck work that is no problem of the program")
    func suspendedQueue() throws {
        var script = EventScript()
        script.queue(1, "paused", suspended: true)
        script.add(1, queue: 1, "held")
        script.add(2, queue: 1, "behind", after: [1])
        let model = script.model()
        #expect(model.stuckOperations() == [OperationID(1), OperationID(2)])
        #expect(!model.report().hasProblem)
        #expect(StuckCause.queueSuspended.reportVerdict == .never)
    }

    @Test("the warnings, the diagnoses and the graph's marks name causes of the one classification")
    func table() {
        #expect(Warning.Kind.allCases.filter { $0.stuckCause == nil } == [.droppedEvents])
        #expect(Warning.Kind.cancelledStillExecuting.stuckCause == .ignoresCancellation)
        // Every cause a diagnosis can name is found by a `why:` word; executing causes are only warned about.
        for kind in Diagnosis.Kind.allCases {
            if let cause = kind.stuckCause { #expect(!cause.filterWords.isEmpty, "\(kind)") }
        }
        for cause in StuckCause.allCases where cause.executingAdvice != nil { #expect(cause.filterWords.isEmpty, "\(cause)") }
        // The graph ranks its marks as the classification ranks their causes.
        let marks: [GraphRoot] = [.cycle, .noQueue, .neverFinishes, .neverReturns, .finishNotSignalled, .notReady, .notStarted, .suspended]
        let ranks = marks.map { StuckCause.allCases.firstIndex(of: $0.cause)! }
        #expect(ranks == ranks.sorted())
        #expect(marks == marks.sorted())
    }
}
