import Foundation

/// An operation of the program's own whose `isReady` adds a condition of its own to
/// Foundation's (its dependencies): a gate, such as "the network is up", opened later by
/// `openGate()`. Done right, opening the gate tells the queue: `willChangeValue` and
/// `didChangeValue(forKey: "isReady")` around the change. The mistake (`notifies: false`)
/// leaves them out: Foundation caches readiness when the operation is added, so the queue keeps
/// it waiting although `isReady` now reads true (on Linux until other work of the same queue
/// finishes and the pass after that). A plain `Operation`, not one of OpScope's base classes,
/// which keep `isReady` for themselves.
final class GatedOperation: Operation, @unchecked Sendable {
    // Safety: `open` is only touched under `lock`; the rest is immutable.
    private let lock = NSLock()
    private var open = false
    private let seconds: Double
    private let notifies: Bool

    init(_ name: String, seconds: Double, notifies: Bool) {
        self.seconds = seconds
        self.notifies = notifies
        super.init()
        self.name = name
    }

    override var isReady: Bool { super.isReady && lock.withLock { open } }

    /// The condition is met: the operation may run once its dependencies have finished.
    func openGate() {
        if notifies { willChangeValue(forKey: "isReady") }
        lock.withLock { open = true }
        if notifies { didChangeValue(forKey: "isReady") }
    }

    override func main() {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end, !isCancelled {
            Thread.sleep(forTimeInterval: min(0.02, max(0, end.timeIntervalSinceNow)))
        }
    }
}
