#if OTLP
import DashboardModel
import OpScopeTelemetry
import OperationEvents
import Tracing

/// The live trace consumer: a subscription of its own (`traces`) read on a thread of its own,
/// folded into a model; each finish becomes a span, stuck work is exported unfinished at the
/// next sweep, and `stop()` exports what is left unfinished and ends the session's root span.
final class TraceExporter: @unchecked Sendable {
    // Safety: everything but `follower` is used by the exporter's thread alone while it runs,
    // and by `stop()` after it ended.
    private let source: any EventSource
    private let follower: SubscriptionFollower
    private var model = DashboardModel()
    private var collector = SpanCollector()
    private var emitter: SpanEmitter
    private var lastSweep: UInt64 = 0
    private let sweepInterval: UInt64
    private var stopped = false

    init(source: any EventSource, tracer: any Tracer, session: TraceSession, configuration: OTLPConfiguration) {
        self.source = source
        follower = SubscriptionFollower(source: source, consumer: "traces", configuration: configuration.reading)
        emitter = SpanEmitter(tracer: tracer, session: session)
        sweepInterval = UInt64(max(0.01, configuration.sweepInterval) * 1e9)
        follower.start(name: "opscope.traces", fold: { [self] batch in
            if model.apply(batch) { follower.subscription.resynchronize() }
            emitter.emit(collector.finished(batch.events, in: model))
            if model.now &- lastSweep >= sweepInterval { sweep() }
        }, quiet: { [self] _ in
            model.advance(to: source.now())
            if model.now &- lastSweep >= sweepInterval { sweep() }
        })
    }

    /// Spans handed to the tracer (read after `stop()`).
    var spansEmitted: Int { emitter.emitted }

    /// Events folded so far.
    var eventsFolded: Int { follower.eventsFolded }

    /// CPU time the exporter's thread used so far (nanoseconds).
    var cpuNanoseconds: UInt64 { follower.cpuNanoseconds }

    /// Brings the export up to the present (what the subscription holds is folded).
    func sync() { follower.sync() }

    /// Stops following, exports what has not finished as unfinished spans and ends the root
    /// span. Safe to call more than once.
    func stop() {
        follower.stop()
        guard !stopped else { return }
        stopped = true
        model.advance(to: source.now())
        collector.noteWarnings(in: model)
        emitter.emit(collector.close(in: model))
        emitter.end(at: model.now, eventsLost: model.droppedEvents)
    }

    /// New warnings, stuck work, and forgetting what the model no longer holds.
    private func sweep() {
        lastSweep = model.now
        collector.noteWarnings(in: model)
        emitter.emit(collector.stuck(in: model))
        collector.forgetReleased(in: model)
        let operations = model.operations
        emitter.forget { operations.contains($0) }
    }
}
#endif
