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
