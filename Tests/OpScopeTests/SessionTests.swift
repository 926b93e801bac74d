import Foundation
import OpScope
import Testing

/// A terminal that plays keys at given frames and keeps what was drawn.
final class ScriptedTerminal: TerminalSurface, @unchecked Sendable {
    var size: (width: Int, height: Int) = (120, 40)
    var frames: [Buffer] = []
    var script: [Int: [Key]]
    var pendingSignal: Int32?
    private var queued: [Key] = []

    init(script: [Int: [Key]]) { self.script = script }

    func readKey() -> Key? {
        if queued.isEmpty, let keys = script.removeValue(forKey: frames.count) { queued = keys }
        return queued.isEmpty ? nil : queued.removeFirst()
    }

    func draw(_ buffer: Buffer, full: Bool) { frames.append(buffer) }

    func waitForInput(seconds: Double) { Thread.sleep(forTimeInterval: min(seconds, 0.005)) }
}

@Suite("Dashboard loop", .serialized, .timeLimit(.minutes(2)))
@MainActor
struct SessionTests {
    @Test("OperationQueue.main keeps running while the dashboard runs on the main thread")
    func mainQueueKeepsRunning() async throws {
        let monitor = OperationMonitor()
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        let ran = Counter()
        // Main-queue work added from another thread while the loop runs.
        let feeder = Thread {
            for _ in 0..<20 {
                OperationQueue.main.addOperation { ran.add() }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        feeder.start()
        queue.addOperation { Thread.sleep(forTimeInterval: 0.05) }
        let terminal = ScriptedTerminal(script: [:])
        var options = SessionOptions()
        options.framesPerSecond = 60
        // Quit once every main-queue operation ran and a frame was drawn (checked between frames),
        // or after 90 s (a failsafe for a busy machine: the test decides by the count). On a busy
        // machine all 20 can run before the first frame; quitting then would leave nothing to read.
        let deadline = Date().addingTimeInterval(90)
        terminal.script = [:]
        let watcher = QuitWhen(terminal: terminal) {
            (ran.value >= 20 && !terminal.frames.isEmpty) || Date() > deadline
        }
        let ending = await OpScopeDashboard.run(monitor, on: watcher, options: options)
        #expect(ending == .quit)
        #expect(ran.value == 20, "only \(ran.value) of 20 main-queue operations ran while the dashboard was up")
        let last = try #require(terminal.frames.last, "the dashboard drew no frame")
        #expect(last.text.contains("q1 work"))
        // The dashboard leaves the host's queue as it found it.
        #expect(!queue.isSuspended && queue.maxConcurrentOperationCount == OperationQueue.defaultMaxConcurrentOperationCount)
        await drain(queue)
    }

    @Test("keys become commands on the real bridge: suspend, then quit")
    func keysReachTheBridge() async {
        let monitor = OperationMonitor()
        let queue = ObservedOperationQueue(monitor: monitor, name: "work")
        queue.addOperation { Thread.sleep(forTimeInterval: 0.01) }
        let terminal = ScriptedTerminal(script: [2: [.character("s")], 6: [.character("q")]])
        let ending = await OpScopeDashboard.run(monitor, on: terminal)
        #expect(ending == .quit)
        #expect(queue.isSuspended, "s suspended the queue")
        #expect(terminal.frames.last!.lines().contains { $0.contains("q1 work") && $0.contains("SUSPENDED") })
        queue.isSuspended = false
        await drain(queue)
    }
}

/// Waits (suspending, not blocking) until the queue is empty.
func drain(_ queue: OperationQueue) async {
    while queue.operationCount > 0 { try? await Task.sleep(for: .milliseconds(10)) }
}

/// Wraps a terminal and sends `q` once `condition` holds.
final class QuitWhen: TerminalSurface, @unchecked Sendable {
    let inner: ScriptedTerminal
    let condition: @Sendable () -> Bool
    init(terminal: ScriptedTerminal, _ condition: @escaping @Sendable () -> Bool) {
        inner = terminal
        self.condition = condition
    }
    var size: (width: Int, height: Int) { inner.size }
    var pendingSignal: Int32? { nil }
    func readKey() -> Key? { condition() ? .character("q") : inner.readKey() }
    func draw(_ buffer: Buffer, full: Bool) { inner.draw(buffer, full: full) }
    func waitForInput(seconds: Double) { inner.waitForInput(seconds: seconds) }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
