import OperationEvents

/// A small program's state: a network queue feeding a serial UI queue, one of each state, a
/// suspended queue, a cycle and a cancelled operation. Time is fixed (an injected clock).
public func pipelineScript() -> EventScript {
    var script = EventScript()
    script.queue(1, "net", max: 2)
    script.queue(2, "ui", max: 1)
    script.queue(3, "paused", suspended: true)
    script.add(1, queue: 1, "download-a", qos: .utility, async: true)
    script.add(2, queue: 1, "download-b", qos: .utility, async: true)
    script.add(3, queue: 1, "download-c", priority: .high, qos: .utility, async: true)
    script.add(4, queue: 1, "parse-a", after: [1], qos: .utility)
    script.add(5, queue: 1, "parse-b", after: [2], qos: .utility)
    script.add(6, queue: 2, "update-ui", after: [4, 5], qos: .userInitiated)
    script.start(1)
    script.start(2)
    script.add(7, queue: 3, "thumbnail", qos: .background)
    script.add(8, queue: 3, "index", after: [9], qos: .background)
    script.add(9, queue: 3, "reindex", after: [8], qos: .background)
    script.add(10, queue: 1, "prefetch", qos: .utility)
    script.cancel(10)
    script.add(11, queue: 2, "log", qos: .userInitiated)
    script.start(11)
    script.finish(11, after: 40_000_000)
    return script
}

