import EventCoding
import OperationEvents

/// A recording as a Chrome/Perfetto trace (trace-event JSON): one track per queue (split into
/// lanes when its operations overlap, since slices on one track must nest), one complete slice
/// (`X`) per operation run, flow arrows (`s` → `f`) from each dependency's run to its
/// dependent's, instant events (`i`) for cancellations, lost finishes, lost events and
/// warnings appearing (on a track of their own), and each operation's wait before it started as
/// an async slice (`b` … `e`, category `wait`), to the end of the recording for work that never
/// started.
///
/// Operations the first keyframe holds (what ran before the recording started, as far as it was
/// retained) are included; runs still open at the end are closed there and marked `unfinished`.
public enum PerfettoExport {
    /// What was written.
    public struct Summary: Sendable, Equatable {
        /// Operation runs (`X` slices).
        public var slices = 0
        /// Dependency arrows (pairs of `s` and `f`).
        public var flows = 0
        /// Instant events.
        public var instants = 0
        /// Tracks (threads) used.
        public var tracks = 0
        /// Waits (async slices from an operation's add to its start, or to the end of the
        /// recording for one that never started).
        public var waits = 0
    }

    /// Writes the trace of `recording`, handing the text to `output` in chunks.
    public static func export(_ recording: Recording, to output: @escaping ([UInt8]) throws -> Void) throws -> Summary {
        var base = recording.origin
        recording.initialState.operations.forEach { record in
            base = min(base, record.pointee.addedAt, record.pointee.startedAt ?? base)
        }
        var tracker = RunTracker(writer: TraceWriter(output: output), base: base, program: recording.header.program)
        try tracker.begin()
        let reader = try recording.makeReader()
        // The same reading of damaged lines as the index's (RecordingFold): repeats skipped,
        // unannounced gaps shown as lost events, keyframes loaded when the state needs one.
        var check = SequenceCheck(source: recording.path)
        var time = recording.origin
        var marks = recording.marks[...]
        while let record = try reader.next() {
            switch record.line {
            case .event(let event):
                let verdict = check.event(event, line: record.position.line)
                if verdict == .repeated { continue }
                time = max(time, event.time)
                if case .gap(let missing) = verdict {
                    try tracker.warning("\(missing) events are missing here (sequence numbers skipped)", at: time)
                }
                while let mark = marks.first, mark.time <= time {
                    try tracker.warning(mark.message, at: mark.time)
                    marks = marks.dropFirst()
                }
                try tracker.apply(event, at: time)
            case .keyframe(let keyframe):
                guard check.keyframe(keyframe, line: record.position.line).load else { continue }
                let state: StreamState
                do {
                    state = try keyframe.decodeState(as: StreamState.self)
                } catch {
                    throw EventStreamError(source: recording.path, line: record.position.line, offset: record.position.offset,
                                           kind: .corruptLine("keyframe state does not decode: \(RecordingFold.describe(error))"))
                }
                time = max(time, keyframe.time)
                try tracker.adopt(state, at: time)
            case .dropped(let marker):
                check.dropped()
                try tracker.warning("\(marker.count) events were lost while recording", at: marker.time.map { max($0, time) } ?? time)
            case .unknown:
                check.otherLine()
            case .header, .end:
                break
            }
        }
        for mark in marks { try tracker.warning(mark.message, at: mark.time) }
        try tracker.closeAll(at: recording.endTime)
        let started = recording.header.startedAt.description
        try tracker.writer.finish(otherData: TraceWriter.object([
            ("program", TraceWriter.quoted(recording.header.program)), ("startedAt", TraceWriter.quoted(started)),
            ("source", TraceWriter.quoted("opscope export --format perfetto")),
            ("timeZeroMonitorTime", String(base)),
        ]))
        let counts = tracker.writer.counts
        return Summary(slices: counts["X"] ?? 0, flows: counts["s"] ?? 0, instants: counts["i"] ?? 0, tracks: tracker.trackCount,
                       waits: counts["b"] ?? 0)
    }
}
