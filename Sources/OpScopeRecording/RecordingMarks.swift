import EventCoding
import OperationEvents

/// `{` and `}`: the previous or next moment worth a look from a position of a recording: a
/// warning appearing, or (with an operation selected) a change of that operation's state.
enum RecordingMarks {
    /// Where to go, and what is there.
    struct Found: Equatable {
        /// The position to show (events applied).
        var position: Int
        /// What happened there, for the status line.
        var text: String
    }

    /// The nearest mark after (`forward`) or before `position`, if any.
    static func find(in recording: Recording, from position: Int, forward: Bool, operation: OperationID?) -> Found? {
        var best: Found?
        func consider(_ candidate: Found) {
            guard forward ? candidate.position > position : candidate.position < position else { return }
            if let current = best, forward ? current.position <= candidate.position : current.position >= candidate.position { return }
            best = candidate
        }
        let marks = recording.marks
        if forward {
            if let mark = marks.first(where: { $0.position > position }) {
                consider(Found(position: mark.position, text: "warning: " + mark.message))
            }
        } else if let mark = marks.last(where: { $0.position < position }) {
            consider(Found(position: mark.position, text: "warning: " + mark.message))
        }
        if let operation, let index = change(of: operation, in: recording, from: position, forward: forward) {
            // Showing event `index` means showing the state right after it.
            let event = try? recording.events(index..<(index + 1)).first
            consider(Found(position: index + 1, text: event?.change.stateMove.map { "\(operation) \($0.words)" } ?? "\(operation) changed"))
        }
        return best
    }

    /// The index of the next (previous) event that changes `operation`'s state.
    private static func change(of operation: OperationID, in recording: Recording, from position: Int, forward: Bool) -> Int? {
        let changes = recording.stateChanges
        let wanted = operation.rawValue
        if forward {
            // Event `position` is the first not shown yet.
            var index = max(0, position)
            while index < changes.count {
                if changes[index] == wanted { return index }
                index += 1
            }
        } else {
            // Event `position - 1` is the one shown last: the one before it is the previous change.
            var index = min(position - 2, changes.count - 1)
            while index >= 0 {
                if changes[index] == wanted { return index }
                index -= 1
            }
        }
        return nil
    }
}
