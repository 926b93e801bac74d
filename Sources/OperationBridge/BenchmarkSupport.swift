import Foundation
import OperationEvents

// Entry points for the benchmark program only: they isolate one piece of the bridge.
extension ObservedOperationQueue {
    /// Registers an operation as `addOperation` would, without enqueueing it.
    @_spi(Benchmark) public func registerForBenchmark(_ operation: Operation) {
        core.willEnqueue(operation, in: self)
    }
}

extension OperationMonitor {
    /// Emits one event, as the hooks do.
    @_spi(Benchmark) public func emitForBenchmark(_ change: MonitorEvent.Change) {
        core.emit(change)
    }
}

extension OperationMonitor {
    /// CPU the sampler thread spent in its ticks so far (nanoseconds), and how many ticks ran.
    @_spi(Benchmark) public var samplerCost: (cpuNanoseconds: UInt64, ticks: Int) {
        (core.sampler.cpuNanoseconds.load(ordering: .relaxed), core.sampler.ticks.load(ordering: .relaxed))
    }
}

extension OperationMonitor {
    /// Serves the hub once, as a read would: everything the ring holds is ordered, kept in the
    /// history and appended to every subscription.
    @_spi(Benchmark) public func serviceForBenchmark() {
        core.hub.service()
    }

    /// CPU the hub's thread spent serving so far (nanoseconds), and how many times it ran.
    @_spi(Benchmark) public var pumpCost: (cpuNanoseconds: UInt64, runs: Int) {
        (core.hub.pump.cpuNanoseconds.load(ordering: .relaxed), core.hub.pump.runs.load(ordering: .relaxed))
    }
}
