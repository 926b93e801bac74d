import OperationEvents

/// The `stuck` demo as the dashboard receives it (the same queues, operations, ids and edges as
/// `opscope demo stuck` produces), on an injected clock: an asynchronous operation that never
/// finishes and two operations behind it, a dependency cycle, a dependency never added to a
/// queue, three operations on a suspended queue, and a `refresh-N` every second that runs for
/// half a second. `seconds` is how long the demo has run.
public func stuckScript(seconds: Int = 4) -> EventScript {
    var script = EventScript()
    script.queue(1, "work", max: 4)
    script.queue(2, "paused", suspended: true)
    script.add(1, queue: 1, "sync-account", async: true)
    script.add(2, queue: 1, "render-feed", after: [1])
    script.add(3, queue: 1, "notify", after: [2])
    script.add(4, queue: 1, "load-config", after: [5])
    script.add(5, queue: 1, "load-plugins", after: [4])
    // `launch` names its dependency before the bridge has seen it: #7 is announced next, in no queue.
    script.add(6, queue: 1, "launch", after: [7])
    script.add(7, queue: nil, "migrate-db", ready: true)
    for id in 8...10 { script.add(id, queue: 2, "thumbnail-\(id - 7)") }
    script.start(1)
    let start = script.time
    var next = 11
    for second in 1...max(1, seconds) {
        // refresh-N is added at second N, runs half a second, and finishes.
        script.time = start + UInt64(second) * 1_000_000_000 - 1_000_000
        script.add(next, queue: 1, "refresh-\(next - 10)")
        script.start(next)
        if second < seconds {
            script.finish(next, after: 500_000_000)
        }
        next += 1
    }
    script.time = start + UInt64(max(1, seconds)) * 1_000_000_000 + 200_000_000
    return script
}
