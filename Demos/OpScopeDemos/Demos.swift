import Foundation
import OperationBridge
import OperationEvents

/// The built-in workloads.
enum Demos {
    /// Counter for operation names (demo-wide, thread-safe).
    private static let counter = Counter()

    static func number() -> Int { counter.next() }

    // MARK: pipeline

    static let pipeline = Demo(
        name: "pipeline",
        summary: "download -> parse -> update chains in parallel; updates on a serial ui queue",
        caption: "dependencies across queues: each update waits for its parse, which waits for its download"
    ) { monitor, pace in
        let handle = DemoHandle()
        let (net, parse, ui) = pipelineQueues(monitor)
        handle.keep(net, parse, ui)
        registerPipelineTemplates(monitor, net: net, parse: parse, ui: ui, pace: pace)
        handle.every(pace.seconds(1.5)) { addPipelines(3, net: net, parse: parse, ui: ui, pace: pace) }
        addPipelines(3, net: net, parse: parse, ui: ui, pace: pace)
        return handle
    }

    static func pipelineQueues(_ monitor: OperationMonitor) -> (ObservedOperationQueue, ObservedOperationQueue, ObservedOperationQueue) {
        (ObservedOperationQueue(monitor: monitor, name: "net", maxConcurrentOperationCount: 3, qualityOfService: .utility),
         ObservedOperationQueue(monitor: monitor, name: "parse", maxConcurrentOperationCount: 2, qualityOfService: .userInitiated),
         ObservedOperationQueue(monitor: monitor, name: "ui", maxConcurrentOperationCount: 1, qualityOfService: .userInteractive))
    }

    static func addPipelines(_ count: Int, net: OperationQueue, parse: OperationQueue, ui: OperationQueue, pace: Pace) {
        // Back-pressure: a demo must not grow without bound when the machine is slow.
        guard net.operationCount < 30 else { return }
        for _ in 0..<count {
            let index = number()
            let download = NetworkOperation("download-\(index)", seconds: pace.seconds(pace.random.double(in: 0.6...2.0)))
            let parseStep = BusyOperation("parse-\(index)", seconds: pace.seconds(pace.random.double(in: 0.2...0.6)))
            let update = BusyOperation("update-\(index)", seconds: pace.seconds(0.15))
            parseStep.addDependency(download)
            update.addDependency(parseStep)
            net.addOperation(download)
            parse.addOperation(parseStep)
            ui.addOperation(update)
        }
    }

    static func registerPipelineTemplates(_ monitor: OperationMonitor, net: OperationQueue, parse: OperationQueue,
                                          ui: OperationQueue, pace: Pace) {
        try? monitor.catalog.register("download", summary: "an asynchronous download (1 s) on net", queue: net) { _ in
            NetworkOperation("download-x\(number())", seconds: pace.seconds(1))
        }
        try? monitor.catalog.register("parse", summary: "parsing, 0.5 s of work on parse", queue: parse) { _ in
            BusyOperation("parse-x\(number())", seconds: pace.seconds(0.5))
        }
        try? monitor.catalog.register("update", summary: "a short update on the serial ui queue", queue: ui) { _ in
            BusyOperation("update-x\(number())", seconds: pace.seconds(0.15))
        }
    }

    // MARK: serial-async

    static let serialAsync = Demo(
        name: "serial-async",
        summary: "truly asynchronous operations on a serial queue: one at a time",
        caption: "at most 1 at a time, async operations: the next starts when the previous calls finish()"
    ) { monitor, pace in
        let handle = DemoHandle()
        let queue = ObservedOperationQueue(monitor: monitor, name: "uploads", maxConcurrentOperationCount: 1)
        handle.keep(queue)
        try? monitor.catalog.register("upload", summary: "an asynchronous upload of 1 s", queue: queue) { _ in
            NetworkOperation("upload-x\(number())", seconds: pace.seconds(1))
        }
        let feed: @Sendable () -> Void = {
            guard queue.operationCount < 6 else { return }
            queue.addOperation(NetworkOperation("upload-\(number())", seconds: pace.seconds(pace.random.double(in: 0.8...1.6))))
        }
        for _ in 0..<4 { feed() }
        handle.every(pace.seconds(1.1), feed)
        return handle
    }

    // MARK: async-right-wrong

    static let asyncRightWrong = Demo(
        name: "async-right-wrong",
        summary: "the same async work as an operation that finishes at once, and as a true async operation",
        caption: "q1: main() returns mid-work, so 'use' runs too early; q2: finish() when done"
    ) { monitor, pace in
        let handle = DemoHandle()
        let wrong = ObservedOperationQueue(monitor: monitor, name: "wrong", maxConcurrentOperationCount: 2)
        let right = ObservedOperationQueue(monitor: monitor, name: "right", maxConcurrentOperationCount: 2)
        handle.keep(wrong, right)
        let feed: @Sendable () -> Void = {
            guard wrong.operationCount < 8, right.operationCount < 8 else { return }
            let index = number()
            let fetchWrong = FireAndForgetOperation("fetch-wrong-\(index)", seconds: pace.seconds(2))
            let useWrong = BusyOperation("use-wrong-\(index)", seconds: pace.seconds(0.3))
            useWrong.addDependency(fetchWrong)
            wrong.addOperations([fetchWrong, useWrong], waitUntilFinished: false)
            let fetchRight = NetworkOperation("fetch-right-\(index)", seconds: pace.seconds(2))
            let useRight = BusyOperation("use-right-\(index)", seconds: pace.seconds(0.3))
            useRight.addDependency(fetchRight)
            right.addOperations([fetchRight, useRight], waitUntilFinished: false)
        }
        try? monitor.catalog.register("fetch-right", summary: "a true asynchronous fetch (2 s)", queue: right) { _ in
            NetworkOperation("fetch-right-x\(number())", seconds: pace.seconds(2))
        }
        try? monitor.catalog.register("fetch-wrong", summary: "a fetch whose main() returns at once", queue: wrong) { _ in
            FireAndForgetOperation("fetch-wrong-x\(number())", seconds: pace.seconds(2))
        }
        feed()
        handle.every(pace.seconds(2.5), feed)
        return handle
    }

    // MARK: stuck

    static let stuck = Demo(
        name: "stuck",
        summary: "why does it never start? a lost finish(), a finish never signalled, a cycle, a suspended queue, a dependency never enqueued",
        caption: "select a waiting operation and press Enter: the diagnosis names the root cause"
    ) { monitor, pace in
        let handle = DemoHandle()
        let work = ObservedOperationQueue(monitor: monitor, name: "work", maxConcurrentOperationCount: 4)
        let paused = ObservedOperationQueue(monitor: monitor, name: "paused")
        paused.isSuspended = true
        handle.keep(work, paused)
        // 1. An asynchronous operation that never calls finish(), and what waits for it.
        let hanging = NeverFinishingOperation("sync-account")
        let render = BusyOperation("render-feed", seconds: 0.1)
        let notify = BusyOperation("notify", seconds: 0.1)
        render.addDependency(hanging)
        notify.addDependency(render)
        // 2. An asynchronous operation that sets isFinished without its KVO notification.
        let forgetful = ForgetfulOperation("save-draft", seconds: pace.seconds(0.3))
        let upload = BusyOperation("upload-draft", seconds: 0.1)
        upload.addDependency(forgetful)
        // 3. A dependency cycle.
        let first = BusyOperation("load-config", seconds: 0.1)
        let second = BusyOperation("load-plugins", seconds: 0.1)
        first.addDependency(second)
        second.addDependency(first)
        // 4. A suspended queue.
        let thumbnails = (1...3).map { BusyOperation("thumbnail-\($0)", seconds: 0.2) }
        // 5. A dependency that was never added to any queue.
        let forgotten = BusyOperation("migrate-db", seconds: 0.1)
        let launch = BusyOperation("launch", seconds: 0.1)
        launch.addDependency(forgotten)
        handle.keep(forgotten)
        work.addOperations([hanging, render, notify, first, second, launch], waitUntilFinished: false)
        paused.addOperations(thumbnails, waitUntilFinished: false)
        // Added last, so that the other lessons keep their numbers (#1 to #10).
        work.addOperations([forgetful, upload], waitUntilFinished: false)
        try? monitor.catalog.register("hang", summary: "another async operation that never finishes", queue: work) { _ in
            NeverFinishingOperation("hang-\(number())")
        }
        try? monitor.catalog.register("thumbnail", summary: "0.2 s of work on the suspended queue", queue: paused) { _ in
            BusyOperation("thumbnail-x\(number())", seconds: pace.seconds(0.2))
        }
        // Some healthy work around them, so the stuck ones stand out.
        handle.every(pace.seconds(1)) {
            guard work.operationCount < 20 else { return }
            work.addOperation(BusyOperation("refresh-\(number())", seconds: pace.seconds(0.5)))
        }
        return handle
    }

    // MARK: priorities

    static let priorities = Demo(
        name: "priorities",
        summary: "mixed queuePriority and QoS on limited concurrency: the scheduler's real order",
        caption: "2 slots: waiting work starts veryHigh first, FIFO within; QoS stands in for unset ones"
    ) { monitor, pace in
        let handle = DemoHandle()
        let queue = ObservedOperationQueue(monitor: monitor, name: "jobs", maxConcurrentOperationCount: 2)
        handle.keep(queue)
        let priorities: [Operation.QueuePriority] = [.veryLow, .low, .normal, .high, .veryHigh]
        let classes: [QualityOfService] = [.background, .utility, .default, .userInitiated, .userInteractive]
        let burst: @Sendable () -> Void = {
            guard queue.operationCount < 24 else { return }
            for _ in 0..<8 {
                let index = number()
                let job = BusyOperation("job-\(index)", seconds: pace.seconds(0.6))
                if pace.random.bool() {
                    job.queuePriority = pace.random.element(of: priorities)
                } else {
                    job.qualityOfService = pace.random.element(of: classes)
                }
                queue.addOperation(job)
            }
        }
        try? monitor.catalog.register("urgent", summary: "a veryHigh-priority job (jumps the line)", queue: queue) { _ in
            let job = BusyOperation("urgent-\(number())", seconds: pace.seconds(0.6))
            job.queuePriority = .veryHigh
            return job
        }
        try? monitor.catalog.register("background", summary: "a background-QoS job (goes last)", queue: queue) { _ in
            let job = BusyOperation("background-\(number())", seconds: pace.seconds(0.6))
            job.qualityOfService = .background
            return job
        }
        burst()
        handle.every(pace.seconds(3), burst)
        return handle
    }

    // MARK: cancellation

    static let cancellation = Demo(
        name: "cancellation",
        summary: "cancelling pending and executing operations; one ignores isCancelled",
        caption: "a cancelled pending one ends early, freeing its dependents; 'stubborn' ignores it"
    ) { monitor, pace in
        let handle = DemoHandle()
        let queue = ObservedOperationQueue(monitor: monitor, name: "tasks", maxConcurrentOperationCount: 2)
        handle.keep(queue)
        let round: @Sendable () -> Void = {
            guard queue.operationCount < 12 else { return }
            let index = number()
            let stubborn = StubbornOperation("stubborn-\(index)", seconds: pace.seconds(4))
            let polite = BusyOperation("polite-\(index)", seconds: pace.seconds(4))
            let waiting = BusyOperation("waiting-\(index)", seconds: pace.seconds(1))
            let after = BusyOperation("after-\(index)", seconds: pace.seconds(0.5))
            after.addDependency(waiting)
            waiting.addDependency(polite)
            queue.addOperations([stubborn, polite, waiting, after], waitUntilFinished: false)
            DispatchQueue.global().asyncAfter(deadline: .now() + pace.seconds(1.5)) {
                stubborn.cancel()
                polite.cancel()
                waiting.cancel()
            }
        }
        try? monitor.catalog.register("stubborn", summary: "4 s of work that ignores isCancelled", queue: queue) { _ in
            StubbornOperation("stubborn-x\(number())", seconds: pace.seconds(4))
        }
        try? monitor.catalog.register("polite", summary: "4 s of work that stops when cancelled", queue: queue) { _ in
            BusyOperation("polite-x\(number())", seconds: pace.seconds(4))
        }
        round()
        handle.every(pace.seconds(6), round)
        return handle
    }

    // MARK: tour (the default)

    static let tour = Demo(
        name: "tour",
        summary: "everything at once: pipelines across queues, priorities, a stuck dependency, a suspended queue",
        caption: "a mixed workload: Tab through the panes, Enter on a waiting operation, ? for every key"
    ) { monitor, pace in
        let handle = DemoHandle()
        let (net, parse, ui) = pipelineQueues(monitor)
        let jobs = ObservedOperationQueue(monitor: monitor, name: "jobs", maxConcurrentOperationCount: 2)
        let paused = ObservedOperationQueue(monitor: monitor, name: "paused")
        paused.isSuspended = true
        handle.keep(net, parse, ui, jobs, paused)
        registerPipelineTemplates(monitor, net: net, parse: parse, ui: ui, pace: pace)
        let hanging = NeverFinishingOperation("sync-account")
        let render = BusyOperation("render-feed", seconds: 0.1)
        render.addDependency(hanging)
        jobs.addOperations([hanging, render], waitUntilFinished: false)
        paused.addOperations([BusyOperation("nightly-backup", seconds: 1)], waitUntilFinished: false)
        handle.every(pace.seconds(2)) { addPipelines(2, net: net, parse: parse, ui: ui, pace: pace) }
        handle.every(pace.seconds(3), after: pace.seconds(0.5)) {
            guard jobs.operationCount < 12 else { return }
            for priority in [Operation.QueuePriority.low, .high, .normal, .veryHigh] {
                let job = BusyOperation("job-\(number())", seconds: pace.seconds(0.8))
                job.queuePriority = priority
                jobs.addOperation(job)
            }
        }
        // The main queue, tracked (OpScope did not create it), so only sampled: every 50 ms by
        // default. UI updates land there while the dashboard runs on its own thread and the
        // main thread keeps serving the main queue. They take a quarter of a second, long
        // enough to be sampled: an instant block would come and go unseen, and the lesson
        // would be a queue that never seems to run anything.
        _ = monitor.track(OperationQueue.main)
        handle.every(pace.seconds(1)) {
            let refresh = BlockOperation { pace.sleep(0.25) }
            refresh.name = "refresh-badge"
            OperationQueue.main.addOperation(refresh)
        }
        addPipelines(2, net: net, parse: parse, ui: ui, pace: pace)
        return handle
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
