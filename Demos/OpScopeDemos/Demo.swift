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
                                     Demos.stuck, Demos.readiness, Demos.priorities, Demos.cancellation]

    /// The demo `opscope` runs without arguments.
    public static var standard: Demo { all[0] }

    /// The demo called `name`.
    public static func named(_ name: String) -> Demo? { all.first { $0.name == name } }
}

/// Time and chance in a demo: `--speed 0.5` makes everything take twice as long (slow motion for
/// teaching), and `--seed N` fixes every random choice (durations, priorities), so that a demo
/// shown twice does the same things in the same order.
public struct Pace: Sendable {
    /// How fast demo time runs (1: real time).
    public let speed: Double
    /// The seed of every random choice the demo makes.
    public let seed: UInt64
    /// The demo's random choices, from `seed`.
    public let random: DemoRandom

    /// A pace; the default seed is fixed, so demos repeat unless told otherwise.
    public init(speed: Double = 1, seed: UInt64 = 1) {
        self.speed = speed > 0 ? speed : 1
        self.seed = seed
        random = DemoRandom(seed: seed)
    }

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

    /// Runs `body` every `interval` real seconds, until `stop()`; the first time after `delay`,
    /// by default one interval from now: the demos feed their first batch themselves, and a
    /// first tick at once added that batch twice.
    func every(_ interval: Double, after delay: Double? = nil, _ body: @escaping @Sendable () -> Void) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "opscope.demo.feeder"))
        timer.schedule(deadline: .now() + (delay ?? interval), repeating: interval, leeway: .milliseconds(20))
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

/// Random choices for demos from a seed (SplitMix64), shared by the demo's feeder threads.
public final class DemoRandom: @unchecked Sendable {
    // Safety: `state` is only touched under `lock`.
    private let lock = NSLock()
    private var state: UInt64

    /// A generator starting at `seed`.
    public init(seed: UInt64) { state = seed }

    private func next() -> UInt64 {
        lock.lock()
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        lock.unlock()
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    public func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }

    /// True or false, evenly.
    public func bool() -> Bool { next() & 1 == 1 }

    /// One of `elements` (not empty).
    public func element<T>(of elements: [T]) -> T { elements[Int(next() % UInt64(elements.count))] }
}
