import Foundation
import OperationBridge

/// A built-in workload for the dashboard: it creates its queues on a monitor, keeps feeding them
/// work, and registers work templates so that `a` adds meaningful work.
public struct Demo: Sendable {
    /// The name used by `opscope demo NAME`.
    public let name: String
    /// One line for `opscope demo --list`.
    public let summary: String
    /// The lesson, shown under the dashboard's title.
    public let caption: String
    /// Starts the workload; the returned handle keeps it running until `stop()`.
    public let start: @Sendable (_ monitor: OperationMonitor, _ pace: Pace) -> DemoHandle

    /// Every demo, the default first.
    public static let all: [Demo] = [Demos.tour, Demos.pipeline, Demos.serialAsync, Demos.asyncRightWrong,
                                     Demos.stuck, Demos.priorities, Demos.cancellation]

    /// The demo `opscope` runs without arguments.
    public static var standard: Demo { all[0] }

    /// The demo called `name`.
    public static func named(_ name: String) -> Demo? { all.first { $0.name == name } }
}

/// Time in a demo: `--speed 0.5` makes everything take twice as long (slow motion for teaching).
public struct Pace: Sendable {
    public let speed: Double
    public init(speed: Double = 1) { self.speed = speed > 0 ? speed : 1 }

    /// `seconds` of demo time in real seconds.
    public func seconds(_ seconds: Double) -> Double { seconds / speed }

    /// Sleeps for `seconds` of demo time.
    public func sleep(_ seconds: Double) { Thread.sleep(forTimeInterval: self.seconds(seconds)) }
}

/// A running demo: its queues, operations and feeder. `stop()` ends the feeding and lets the
/// queued work drain (nothing is cancelled behind the person's back).
public final class DemoHandle: @unchecked Sendable {
    private let lock = NSLock()
    private var timers: [DispatchSourceTimer] = []
    private var retained: [AnyObject] = []
    /// The queues the demo created, for reports and tests.
    public private(set) var queues: [ObservedOperationQueue] = []

    init() {}

    func keep(_ objects: AnyObject...) {
        lock.lock()
        retained.append(contentsOf: objects)
        for case let queue as ObservedOperationQueue in objects { queues.append(queue) }
        lock.unlock()
    }

    /// Runs `body` every `interval` real seconds (first after `delay`), until `stop()`.
    func every(_ interval: Double, after delay: Double = 0, _ body: @escaping @Sendable () -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "opscope.demo.feeder"))
        timer.schedule(deadline: .now() + delay, repeating: interval, leeway: .milliseconds(20))
        timer.setEventHandler(handler: body)
        lock.lock()
        timers.append(timer)
        lock.unlock()
        timer.resume()
    }

    /// Stops feeding work.
    public func stop() {
        lock.lock()
        let stopping = timers
        timers = []
        lock.unlock()
        for timer in stopping { timer.cancel() }
    }

    deinit { stop() }
}
