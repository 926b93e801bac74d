import Foundation
@testable import OperationBridge
import Testing

/// The monitor's own threads carry names that `top -H`, `perf` and debuggers show.
@Suite("Monitor threads: names")
struct MonitorThreadTests {
    /// The kernel's name of one of the process's threads.
    private func kernelName(ofThread id: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    #if os(Linux)
    @Test("the hub's and the sampler's threads are named where system tools look")
    func named() {
        var configuration = OperationMonitor.Configuration()
        // Small, so that a few operations wake the hub's thread.
        configuration.bufferCapacity = 64
        let monitor = OperationMonitor(configuration: configuration)
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        for _ in 0..<40 { queue.addOperation(ObservableBlockOperation {}) }
        // A foreign operation: the sampler starts for it.
        queue.addOperation(BlockOperation {})
        queue.waitUntilAllOperationsAreFinished()
        // This monitor's own threads, by their kernel ids (other tests' monitors have threads of
        // the same names).
        let pump = monitor.core.hub.pump
        let sampler = monitor.core.sampler
        #expect(waitUntil { pump.threadID.load(ordering: .acquiring) != 0 }, "the hub's thread never started")
        #expect(waitUntil { sampler.threadID.load(ordering: .acquiring) != 0 }, "the sampler never started")
        // Both threads stay alive (waiting for work) until the monitor goes.
        #expect(kernelName(ofThread: pump.threadID.load(ordering: .acquiring)) == "OpScope hub")
        #expect(kernelName(ofThread: sampler.threadID.load(ordering: .acquiring)) == "OpScope sampler")
        withExtendedLifetime(monitor) {}
    }
    #endif
}
