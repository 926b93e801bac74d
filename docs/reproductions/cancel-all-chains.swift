// Foundation on Linux, no OpScope: four threads add chains of BlockOperations while another
// calls cancelAllOperations() on one of three queues every 20 ms, for 6 s. Modes:
//   chains (crashes), chains-same (chains within one queue; crashes), chains-safe and
//   chains-safe-same (remove unfinished dependencies, then cancel one by one; the first crashed
//   in 1 of 6 runs, the second in none of 5), chains-nocancel and flat (no crash).
//   swiftc -O cancel-all-chains.swift -o repro && ./repro chains
import Foundation
// Plain Foundation: two adder threads build cross-queue chains; another thread calls
// cancelAllOperations() on one queue now and then. No OpScope code.
let queues = (0..<3).map { index -> OperationQueue in let q = OperationQueue(); q.maxConcurrentOperationCount = 1 + index * 3; return q }
let mode = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "chains"
let stop = NSLock(); nonisolated(unsafe) var stopped = false
func isStopped() -> Bool { stop.lock(); defer { stop.unlock() }; return stopped }
let group = DispatchGroup()
for adder in 0..<4 {
    group.enter()
    Thread.detachNewThread {
        var previous: Operation?
        var previousQueue = -1
        while !isStopped() {
            let index = (adder + Int.random(in: 0..<3)) % 3
            let queue = queues[index]
            if mode.hasSuffix("same"), index != previousQueue { previous = nil }
            previousQueue = index
            if queue.operationCount > 400 { Thread.sleep(forTimeInterval: 0.001); continue }
            let op = BlockOperation { var x = 0; for i in 0..<Int.random(in: 10...2000) { x &+= i }; if x == -1 { print(x) } }
            if mode.hasPrefix("chains"), let previous, Bool.random() { op.addDependency(previous) }
            queue.addOperation(op)
            previous = Bool.random() ? op : nil
        }
        group.leave()
    }
}
let start = Date()
while Date().timeIntervalSince(start) < 6 {
    let target = queues.randomElement()!
    if mode == "chains-nocancel" { } else if mode.hasPrefix("chains-safe") {
        for op in target.operations { for dep in op.dependencies where !dep.isFinished { op.removeDependency(dep) }; op.cancel() }
    } else { target.cancelAllOperations() }
    Thread.sleep(forTimeInterval: 0.02)
}
stop.lock(); stopped = true; stop.unlock()
group.wait()
for q in queues { q.waitUntilAllOperationsAreFinished() }
print("done without a crash (\(mode))")
