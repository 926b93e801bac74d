import OperationEvents

/// Wait and run times per quality of service: one `LatencyStatistics` per class in a fixed
/// slot, recorded at every start and finish, where a dictionary would hash the class each time.
struct QoSLatency: Sendable {
    /// The statistics by `slot(of:)`.
    private var slots = [LatencyStatistics](repeating: LatencyStatistics(), count: QoSClass.allCases.count)
    /// Which slots were recorded into (bit `slot(of:)`): only those are listed.
    private var present: UInt8 = 0

    /// The statistics of every class recorded into.
    var byClass: [QoSClass: LatencyStatistics] {
        var result: [QoSClass: LatencyStatistics] = [:]
        for qos in QoSClass.allCases where present & (1 << Self.slot(of: qos)) != 0 {
            result[qos] = slots[Self.slot(of: qos)]
        }
        return result
    }

    /// Records the wait (added → started) of an operation of `qos`.
    @inline(__always)
    mutating func recordWait(_ qos: QoSClass, nanoseconds: UInt64) {
        let slot = Self.slot(of: qos)
        present |= 1 << slot
        slots[slot].recordWait(nanoseconds: nanoseconds)
    }

    /// Records the run (started → finished) of an operation of `qos`.
    @inline(__always)
    mutating func recordRun(_ qos: QoSClass, nanoseconds: UInt64) {
        let slot = Self.slot(of: qos)
        present |= 1 << slot
        slots[slot].recordRun(nanoseconds: nanoseconds)
    }

    /// The slot of a quality of service.
    private static func slot(of qos: QoSClass) -> Int {
        switch qos {
        case .background: 0
        case .utility: 1
        case .default: 2
        case .userInitiated: 3
        case .userInteractive: 4
        }
    }
}
