import Foundation
@testable import OperationBridge
import Testing

/// The monitor's own threads carry names that `top -H`, `perf` and debuggers show.
@Suite("Monitor threads: names")
struct MonitorThreadTests {
    /// The kernel's names of the process's threads, from `/proc/self/task/*/comm`.
    private func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
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
        let core = monitor.core
        #expect(waitUntil { core.hub.pump.runs.load(ordering: .relaxed) > 0 }, "the hub's thread never ran")
        #expect(waitUntil { core.sampler.ticks.load(ordering: .relaxed) > 0 }, "the sampler never ticked")
        // Both threads are alive (they wait for work) until the monitor goes.
        let names = threadNames()
        #expect(names.contains("OpScope hub"), "\(names)")
        #expect(names.contains("OpScope sampler"), "\(names)")
        withExtendedLifetime(monitor) {}
    }
    #endif
}
