import EventCoding
import OperationEvents

/// Turns a subscription's batches into the lines of a recording, keeping the stream's state as
/// it goes (its own fold) so that it can write a keyframe whenever one is due.
///
/// What it writes after the header: a keyframe first (the subscription's first start, or the
/// empty state when the source starts from nothing), then one line per event; a keyframe again
/// every `keyframeEvery` events or `keyframeInterval` of stream time; and when events were lost
/// (the subscription's drop count grew, or the sequence numbers jumped) a `dropped` marker with
/// how many, followed by a keyframe. Pure: no file, no thread, no clock of its own, so that
/// tests and the benchmark drive it directly.
package struct RecordingWriter {
    /// When keyframes are written, and what the fold keeps of the past.
    package struct Policy: Sendable, Equatable {
        /// A keyframe after this many events.
        package var keyframeEvery: Int
        /// A keyframe after this much stream time (ns) with at least one event since the last.
        package var keyframeInterval: UInt64
        /// What the fold keeps (and so what keyframes hold).
        package var retention: StreamRetention

        package init(keyframeEvery: Int, keyframeInterval: UInt64, retention: StreamRetention) {
            self.keyframeEvery = max(1, keyframeEvery)
            self.keyframeInterval = max(1, keyframeInterval)
            self.retention = retention
        }
    }

    /// The state of the stream as far as it was written.
    package private(set) var state: StreamState
    package let policy: Policy
    /// Events written so far.
    package private(set) var eventsWritten = 0
    /// Events lost so far (the sum of the `dropped` markers).
    package private(set) var droppedWritten = 0
    /// Keyframes written so far.
    package private(set) var keyframesWritten = 0
    /// Keyframes that could not be encoded (and were left out).
    package private(set) var keyframeFailures = 0
    /// The last batch showed a gap in the sequence: the caller should ask its subscription to
    /// start afresh.
    package private(set) var sawGap = false
    /// The subscription's drop count as last seen.
    package private(set) var droppedTotalSeen = 0
    private var started = false
    private var eventsSinceKeyframe = 0
    /// The stream time of the last keyframe's state (nil: it held no time; the next event's counts).
    private var lastKeyframeTime: UInt64?

    package init(policy: Policy) {
        self.policy = policy
        state = StreamState(retention: policy.retention)
    }

    /// The header line, with its line break.
    package static func headerLine(_ header: StreamHeader) -> [UInt8] {
        var bytes = StreamLine.header(header).encoded
        bytes.append(0x0A)
        return bytes
    }

    /// Appends the lines for one batch to `bytes`; `now` is the source's clock when it was read.
    package mutating func take(_ batch: EventBatch, now: UInt64, into bytes: inout [UInt8]) {
        sawGap = false
        var needKeyframe = false
        if batch.droppedTotal > droppedTotalSeen {
            let lost = batch.droppedTotal - droppedTotalSeen
            droppedTotalSeen = batch.droppedTotal
            writeDropped(lost, sequence: started ? state.nextSequence : nil, time: now, into: &bytes)
            needKeyframe = true
        }
        if let start = batch.start {
            switch start {
            case .keyframe(let keyframe):
                state.adopt(keyframe)
            case .snapshot(let snapshot):
                _ = state.catchUp(to: snapshot)
            }
            started = true
            needKeyframe = true
        } else if !started {
            started = true
            needKeyframe = true
        }
        if needKeyframe { writeKeyframe(time: max(state.time, now), into: &bytes) }
        for event in batch.events {
            // A repeat of what the state already holds (from before a keyframe) is not written.
            if event.sequence < state.nextSequence { continue }
            if event.sequence > state.nextSequence {
                let missed = event.sequence - state.nextSequence
                sawGap = true
                writeDropped(Int(clamping: missed), sequence: state.nextSequence, time: event.time, into: &bytes)
                writeKeyframe(time: max(state.time, now), into: &bytes)
            }
            state.apply(event)
            StreamLine.encode(event, into: &bytes)
            bytes.append(0x0A)
            eventsWritten += 1
            eventsSinceKeyframe += 1
            let since = lastKeyframeTime ?? event.time
            if lastKeyframeTime == nil { lastKeyframeTime = event.time }
            let due = eventsSinceKeyframe >= policy.keyframeEvery
                || (event.time >= since && event.time - since >= policy.keyframeInterval)
            if due { writeKeyframe(time: state.time, into: &bytes) }
        }
    }

    /// Appends the `end` line.
    package mutating func finish(time: UInt64, reason: String, into bytes: inout [UInt8]) {
        StreamLine.end(EndMarker(time: time, events: eventsWritten, dropped: droppedWritten, reason: reason)).encode(into: &bytes)
        bytes.append(0x0A)
    }

    private mutating func writeDropped(_ count: Int, sequence: UInt64?, time: UInt64, into bytes: inout [UInt8]) {
        StreamLine.dropped(DroppedMarker(count: count, sequence: sequence, time: time)).encode(into: &bytes)
        bytes.append(0x0A)
        droppedWritten += count
    }

    private mutating func writeKeyframe(time: UInt64, into bytes: inout [UInt8]) {
        // Age-based retention moves with the clock: the keyframe holds what a reader would keep.
        state.trim(now: state.time)
        eventsSinceKeyframe = 0
        lastKeyframeTime = state.time > 0 ? state.time : nil
        guard let keyframe = try? Keyframe(sequence: state.nextSequence, time: time, state: state) else {
            keyframeFailures += 1
            return
        }
        StreamLine.keyframe(keyframe).encode(into: &bytes)
        bytes.append(0x0A)
        keyframesWritten += 1
    }
}
