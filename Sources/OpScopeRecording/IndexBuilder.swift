import DashboardModel
import EventCoding
import OperationEvents

/// The one pass over a recording that `Recording.open` makes: folds it (`RecordingFold`),
/// keeps each event's time and the operation whose state it changes, saves states along the
/// way (`SavedStates`), and looks at the warnings now and then to mark when new ones appear.
struct IndexBuilder {
    private(set) var fold: RecordingFold
    private(set) var saved: SavedStates
    private(set) var times: [UInt64] = []
    private(set) var stateChanges: [Int] = []
    private(set) var marks: [RecordingMark] = []
    private(set) var end: EndMarker?
    private(set) var initialState: StreamState?
    private(set) var origin: UInt64 = 0
    private(set) var endTime: UInt64 = 0
    /// The number of the last line read.
    private(set) var lastLine = 0
    private let options: Recording.IndexOptions
    private var playTime: UInt64 = 0
    private var lastCheckTime: UInt64 = 0
    private var lastCheckPosition = 0
    private var knownWarnings: Set<WarningKey> = []

    private struct WarningKey: Hashable {
        var kind: Warning.Kind
        var operation: OperationID?
    }

    init(configuration: ModelConfiguration, options: Recording.IndexOptions, source: String) {
        fold = RecordingFold(configuration: configuration, source: source)
        saved = SavedStates(interval: options.savedStateInterval, budget: options.memoryBudget)
        self.options = options
        times.reserveCapacity(1 << 16)
        stateChanges.reserveCapacity(1 << 16)
    }

    mutating func take(_ record: StreamRecord) throws(EventStreamError) {
        let position = fold.eventsTaken
        lastLine = record.position.line
        switch try fold.take(record) {
        case .event(let event):
            if fold.gapBeforeLastEvent, !times.isEmpty {
                // Events were lost before this one: a replay takes the state again here (with the
                // loss counted), as it does at a keyframe after a `dropped` marker.
                saved.save(fold.model.stream, at: position, isReset: true)
            }
            if times.isEmpty {
                playTime = event.time
                lastCheckTime = event.time
                if initialState == nil { saveInitial() }
            }
            saved.noteLine(of: position, at: record.position)
            playTime = max(playTime, event.time)
            times.append(playTime)
            stateChanges.append(event.change.stateMove?.operation.rawValue ?? Recording.noOperation)
            let taken = position + 1
            if saved.isDue(taken) {
                fold.flush()
                saved.save(fold.model.stream, at: taken, isReset: false)
            }
            // A look at the warnings costs in proportion to the operations held: with many held it
            // waits for proportionally more events, so that indexing stays linear in the recording
            // (a chain 100,000 deep, added a millisecond apart, took minutes to open).
            let since = taken - lastCheckPosition
            let cost = fold.model.operations.count / 8
            if since >= max(options.warningCheckEvents, cost) || (playTime - lastCheckTime >= options.warningCheckInterval && since >= cost) {
                checkWarnings(now: playTime)
            }
        case .reset:
            if times.isEmpty { initialState = fold.model.stream }
            saved.save(fold.model.stream, at: position, isReset: true)
            playTime = max(playTime, fold.model.now)
        case .dropped, .none:
            break
        case .end(let marker):
            end = marker
        }
    }

    /// Applies what is pending and settles the recording's span.
    mutating func finish(startTime: UInt64) {
        fold.flush()
        if initialState == nil { saveInitial() }
        let first = times.first ?? startTime
        origin = min(startTime, first)
        endTime = max(origin, times.last ?? origin, end?.time ?? origin)
        fold.advance(to: endTime)
        checkWarnings(now: endTime)
    }

    private mutating func saveInitial() {
        initialState = fold.model.stream
        saved.save(fold.model.stream, at: 0, isReset: true)
    }

    /// Marks the warnings that appeared since the last look.
    private mutating func checkWarnings(now: UInt64) {
        fold.flush()
        lastCheckTime = now
        lastCheckPosition = fold.eventsTaken
        let warnings = fold.model.warnings(now: now)
        var current: Set<WarningKey> = []
        var fresh: [Warning] = []
        for warning in warnings {
            let key = WarningKey(kind: warning.kind, operation: warning.operation)
            current.insert(key)
            if !knownWarnings.contains(key) { fresh.append(warning) }
        }
        knownWarnings = current
        for warning in fresh {
            marks.append(RecordingMark(position: fold.eventsTaken, time: now, message: warning.message, operation: warning.operation))
        }
    }
}
