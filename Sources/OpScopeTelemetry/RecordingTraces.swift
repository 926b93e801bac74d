import DashboardModel
import OpScopeRecording
import OperationEvents

/// A recording's operations as spans (a post-mortem in a trace viewer): folded as the index
/// folds it, each operation a span when its finish is read, the warnings as they appeared, and
/// what had not finished by the recording's end ended there, marked unfinished.
public enum RecordingTraces {
    /// The spans of `recording`, and the session they belong to.
    public static func spans(of recording: Recording) throws -> (spans: [OperationSpan], session: TraceSession) {
        var collector = SpanCollector()
        var spans: [OperationSpan] = []
        var last = recording.finalModel
        try recording.fold { model, applied in
            spans += collector.finished(applied, in: model)
            collector.noteWarnings(in: model)
            last = model
        }
        spans += collector.close(in: last)
        var session = TraceSession(header: recording.header, start: recording.origin, end: recording.endTime)
        session.eventsLost = last.droppedEvents
        return (spans, session)
    }
}
