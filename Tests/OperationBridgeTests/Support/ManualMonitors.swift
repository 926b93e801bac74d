import OperationBridge
import OpScopeTestSupport

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
