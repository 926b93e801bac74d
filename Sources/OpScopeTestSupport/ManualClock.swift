import OperationBridge
import Synchronization

/// A clock that moves only when a test moves it, so that durations, sampling intervals and
/// walk budgets are decided by the test, not by how busy the machine is: the one clock of every
/// test target.
///
/// `step` makes every `read()` advance the clock a little first: events stamped by it keep
/// their order, and work measured with it (a tracked queue's walk) costs in proportion to what
/// it did.
public final class ManualClock: Sendable {
    private let nanoseconds: Atomic<UInt64>
    private let step: UInt64

    /// A clock at `start` nanoseconds whose readings each advance it by `step`.
    public init(start: UInt64 = 1_000_000_000, step: UInt64 = 0) {
        nanoseconds = Atomic(start)
        self.step = step
    }

    /// The time now, without moving the clock.
    public var now: UInt64 { nanoseconds.load(ordering: .relaxed) }

    /// A reading: the clock advances by `step`, and this is the time after.
    @Sendable public func read() -> UInt64 { nanoseconds.wrappingAdd(step, ordering: .relaxed).newValue }

    /// Moves the clock on by `nanoseconds`.
    public func advance(nanoseconds delta: UInt64) { nanoseconds.wrappingAdd(delta, ordering: .relaxed) }

    /// Moves the clock on by `duration`.
    public func advance(by duration: Duration) {
        let parts = duration.components
        advance(nanoseconds: UInt64(parts.seconds) * 1_000_000_000 + UInt64(parts.attoseconds / 1_000_000_000))
    }

    /// Moves the clock on by `seconds`.
    public func advance(seconds: Double) { advance(nanoseconds: UInt64(seconds * 1e9)) }

    /// `read` as the function a recorder or agent takes for its clock.
    public var function: @Sendable () -> UInt64 { { [self] in read() } }

    /// The clock as a monitor's clock.
    public var monitorClock: MonitorClock { MonitorClock { [self] in read() } }
}
