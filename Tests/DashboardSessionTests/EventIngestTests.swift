import DashboardModel
import DashboardSession
import OpScopeTestSupport
import OperationEvents
import Testing

@Suite("Session: ingesting events from a subscription")
struct EventIngestTests {
    @Test("applies what the source holds, at most a budget per call, and says whether anything came")
    func budget() {
        let source = ScriptedSource(pipelineScript())
        let total = pipelineScript().events.count
        var ingest = EventIngest(source: source, configuration: ModelConfiguration())
        let first = ingest.ingest(budget: 5)
        #expect(first && ingest.eventsApplied == 5)
        let second = ingest.ingest()
        #expect(second && ingest.eventsApplied == total)
        #expect(ingest.model.operations.count == 11)
        let third = ingest.ingest()
        #expect(!third, "nothing new: nothing changed")
        var more = EventScript()
        more.time = source.now()
        more.add(12, queue: 1, "late")
        source.append(more)
        let fourth = ingest.ingest()
        #expect(fourth)
        #expect(ingest.model.operations.contains(OperationID(12)))
    }

    @Test("two consumers of one source each see every event")
    func fanOut() {
        let source = ScriptedSource(pipelineScript())
        var dashboard = EventIngest(source: source, configuration: ModelConfiguration())
        var report = EventIngest(source: source, configuration: ModelConfiguration(), consumer: "report")
        _ = dashboard.ingest()
        _ = report.ingest()
        #expect(dashboard.eventsApplied == report.eventsApplied)
        #expect(dashboard.model.report() == report.model.report())
    }
}
