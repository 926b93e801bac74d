import EventCoding
import Foundation
import OperationEvents

/// Checks a recording's events, in file order, against the format's promise that sequence
/// numbers are contiguous unless a `dropped` marker announces a gap, and says what to do with
/// each line when the file breaks it (a damaged or hand-edited file). Nothing it finds is
/// silent: each finding is a `RecordingNotice` naming the line.
///
/// The file order is trusted over the numbers: a jump forward counts the numbers skipped as
/// events lost (as a `dropped` marker would) and the state is taken again from the next keyframe
/// (as a live consumer re-synchronises after a gap); a number that goes back is applied where it
/// stands; only a line that repeats the line before it, exactly, is ignored. A time that goes back
/// by more than `timeTolerance` is named too (less is normal: threads stamp events before they
/// are put in order).
struct SequenceCheck {
    /// What to do with an event line.
    enum Verdict: Equatable {
        /// It follows the line before: apply it.
        case next
        /// This many events are missing before it: count them as lost, then apply it.
        case gap(UInt64)
        /// It repeats the line before it: ignore it.
        case repeated
        /// Its number goes back: apply it where it stands.
        case back
    }

    /// Findings kept (the first `noticeLimit`; `noticeCount` counts them all).
    private(set) var notices: [RecordingNotice] = []
    /// Findings in all.
    private(set) var noticeCount = 0
    /// The next keyframe must be loaded: the first, or the first after events were lost.
    private(set) var needsKeyframe = true
    /// The sequence number the next event should carry (nil: any, after a loss announced).
    private var expected: UInt64?
    /// The last event line, when the line before was one (for repeats).
    private var previous: MonitorEvent?
    private var previousTime: UInt64?
    private let source: String

    static let noticeLimit = 100
    /// How far back an event's time may be from the line before it without a notice.
    static let timeTolerance: UInt64 = 1_000_000_000

    init(source: String) {
        self.source = source
    }

    /// Checks an event line.
    mutating func event(_ event: MonitorEvent, line: Int) -> Verdict {
        defer {
            previous = event
            // Against the line before only: one line far in the future makes one notice, not one per line after it.
            previousTime = event.time
        }
        checkTime(event.time, line: line)
        guard let expected else {
            self.expected = event.sequence &+ 1
            return .next
        }
        if event.sequence == expected {
            self.expected = expected &+ 1
            return .next
        }
        if event.sequence > expected {
            let missing = event.sequence - expected
            note(line, "sequence number \(event.sequence) where \(expected) was expected, and no dropped marker says why: "
                 + "\(Self.events(missing)) missing; counted as dropped, and the lines after it are read on")
            self.expected = event.sequence &+ 1
            needsKeyframe = true
            return .gap(missing)
        }
        if event == previous {
            note(line, "repeats the line before it (sequence number \(event.sequence)); ignored")
            return .repeated
        }
        note(line, "sequence number \(event.sequence) goes back (the line before it had \(expected &- 1)); applied where it stands")
        self.expected = event.sequence &+ 1
        return .back
    }

    /// Checks a keyframe line: whether to load it (the first, one after lost events, one that does
    /// not continue the events before it) and how many events are missing before it unannounced.
    mutating func keyframe(_ keyframe: Keyframe, line: Int) -> (load: Bool, missing: UInt64) {
        previous = nil
        var missing: UInt64 = 0
        if let expected, keyframe.sequence != expected {
            if keyframe.sequence > expected {
                missing = keyframe.sequence - expected
                note(line, "keyframe at sequence number \(keyframe.sequence) where \(expected) was expected, and no dropped marker "
                     + "says why: \(Self.events(missing)) missing; counted as dropped, and the state is taken from the keyframe")
            } else {
                note(line, "keyframe at sequence number \(keyframe.sequence) goes back (the events before it reached "
                     + "\(expected &- 1)); the state is taken from it")
            }
        }
        let load = needsKeyframe || keyframe.sequence != expected
        expected = keyframe.sequence
        if load { needsKeyframe = false }
        return (load, missing)
    }

    /// A `dropped` marker: the loss is announced, so the next numbers may start anywhere, and the
    /// state is taken from the next keyframe.
    mutating func dropped() {
        expected = nil
        previous = nil
        needsKeyframe = true
    }

    /// Any other line: a repeat is a repeat of the line just before.
    mutating func otherLine() {
        previous = nil
    }

    private mutating func checkTime(_ time: UInt64, line: Int) {
        guard let before = previousTime, before > time, before - time > Self.timeTolerance else { return }
        let seconds = Double(before - time) / 1e9
        note(line, "its time goes back \(seconds < 100 ? String(format: "%.3f", seconds) : String(format: "%.0f", seconds)) s "
             + "from the line before it; the replay shows it at the later time")
    }

    private mutating func note(_ line: Int, _ message: String) {
        noticeCount += 1
        if notices.count < Self.noticeLimit { notices.append(RecordingNotice(source: source, line: line, message: message)) }
    }

    private static func events(_ count: UInt64) -> String { count == 1 ? "1 event" : "\(count) events" }
}
