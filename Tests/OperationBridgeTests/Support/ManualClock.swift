import OperationBridge
import Synchronization

/// A monitor clock that moves only when a test moves it, so that sampling intervals and walk
/// budgets are decided by the test, not by how busy the machine is.
///
/// `step` makes every reading advance the clock a little: work measured with the clock (a
/// tracked queue's walk) then costs in proportion to what it did.
final class ManualClock: Sendable {
    private let nanoseconds: Atomic<UInt64>
    private let step: UInt64

    init(start: UInt64 = 1_000_000_000, step: UInt64 = 0) {
        nanoseconds = Atomic(start)
        self.step = step
    }

    var now: UInt64 { nanoseconds.load(ordering: .relaxed) }

    func advance(by duration: Duration) {
        let parts = duration.components
        nanoseconds.wrappingAdd(UInt64(parts.seconds) * 1_000_000_000 + UInt64(parts.attoseconds / 1_000_000_000),
                                ordering: .relaxed)
    }

    var monitorClock: MonitorClock {
        MonitorClock { [self] in nanoseconds.wrappingAdd(step, ordering: .relaxed).newValue }
    }
}

extension OperationMonitor {
    /// A monitor on `clock` that samples only when `sampleNow()` is called.
    static func manual(_ clock: ManualClock, configure: (inout Configuration) -> Void = { _ in }) -> OperationMonitor {
        var configuration = Configuration()
        configuration.clock = clock.monitorClock
        configuration.samplesAutomatically = false
        configure(&configuration)
        return OperationMonitor(configuration: configuration)
    }

    /// A monitor on `clock` whose ring of 16 overflows at once and is served only when read
    /// (tests of the repair after drops).
    static func lossy(_ clock: ManualClock) -> OperationMonitor {
        manual(clock) { configuration in
            configuration.bufferCapacity = 16
            configuration.pumpsAutomatically = false
        }
    }
}
