import OperationEvents

extension StreamLine {
    /// The line's JSON text, without the line break (files add `\n`, frames a length).
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        return bytes
    }

    /// Appends the line's JSON text, without the line break, to `bytes`.
    public func encode(into bytes: inout [UInt8]) {
        switch self {
        case .header(let header):
            let bound = JSONText.fixedBound + JSONText.bound(header.program) + (header.host.map(JSONText.bound) ?? 0)
            JSONText.write(bound: bound, into: &bytes) { Self.encode(header, into: &$0) }
        case .event(let event):
            Self.encode(event, into: &bytes)
        case .keyframe(let keyframe):
            JSONText.write(bound: JSONText.fixedBound + keyframe.stateJSON.count, into: &bytes) { text in
                text.open(kind: "keyframe")
                text.field("sequence", keyframe.sequence)
                text.field("time", keyframe.time)
                text.field("state", json: keyframe.stateJSON)
                text.close()
            }
        case .dropped(let marker):
            JSONText.write(bound: JSONText.fixedBound, into: &bytes) { text in
                text.open(kind: "dropped")
                text.field("count", marker.count)
                if let sequence = marker.sequence { text.field("sequence", sequence) }
                if let time = marker.time { text.field("time", time) }
                text.close()
            }
        case .end(let marker):
            JSONText.write(bound: JSONText.fixedBound + (marker.reason.map(JSONText.bound) ?? 0), into: &bytes) { text in
                text.open(kind: "end")
                text.field("time", marker.time)
                if let events = marker.events { text.field("events", events) }
                if let dropped = marker.dropped { text.field("dropped", dropped) }
                if let reason = marker.reason { text.field("reason", string: reason) }
                text.close()
            }
        case .unknown(let kind):
            // Only a line read from a newer writer is unknown; what it held beyond its kind is gone.
            JSONText.write(bound: JSONText.fixedBound + JSONText.bound(kind), into: &bytes) { text in
                text.open(kindText: kind)
                text.close()
            }
        }
    }

    /// Appends one event's line, without the line break: the writer's hot path.
    public static func encode(_ event: MonitorEvent, into bytes: inout [UInt8]) {
        JSONText.write(bound: bound(of: event.change), into: &bytes) { text in
            text.open(kind: "event")
            text.field("sequence", event.sequence)
            text.field("time", event.time)
            text.field("origin", word: Vocabulary.origins.word(for: event.origin))
            text.field("change", word: Vocabulary.changes.word(for: ChangeKind(event.change)))
            encodeFields(of: event.change, into: &text)
            text.close()
        }
    }

    /// The most bytes an event line can take: its fixed parts, plus its strings and dependencies.
    private static func bound(of change: MonitorEvent.Change) -> Int {
        switch change {
        case .queueAppeared(let info): JSONText.fixedBound + JSONText.bound(info.name)
        case .queueRenamed(_, let name): JSONText.fixedBound + JSONText.bound(name)
        case .operationAdded(let info):
            JSONText.fixedBound + (info.name.map(JSONText.bound) ?? 0) + JSONText.bound(info.typeName)
                + 21 * info.dependencies.count
        default: JSONText.fixedBound
        }
    }

    /// The change's own fields. A key means the same thing on every line (`queue` is always a
    /// queue id, `isCancelled` always the cancelled flag), so `jq 'select(.operation == 12)'`
    /// finds everything about operation 12, its addition included.
    private static func encodeFields(of change: MonitorEvent.Change, into text: inout JSONText) {
        switch change {
        case .queueAppeared(let info):
            text.field("queue", info.id.rawValue)
            text.field("name", string: info.name)
            text.field("maxConcurrentOperationCount", info.maxConcurrentOperationCount)
            text.field("isSuspended", info.isSuspended)
            text.field("qualityOfService", word: Vocabulary.qualities.word(for: info.qualityOfService))
            text.field("isMainQueue", info.isMainQueue)
            text.field("observation", word: Vocabulary.queueObservations.word(for: info.observation))
        case .queueSuspended(let queue, let suspended):
            text.field("queue", queue.rawValue)
            text.field("isSuspended", suspended)
        case .queueMaxConcurrency(let queue, let count):
            text.field("queue", queue.rawValue)
            text.field("maxConcurrentOperationCount", count)
        case .queueRenamed(let queue, let name):
            text.field("queue", queue.rawValue)
            text.field("name", string: name)
        case .queueQualityOfService(let queue, let qos):
            text.field("queue", queue.rawValue)
            text.field("qualityOfService", word: Vocabulary.qualities.word(for: qos))
        case .queueCancelledAll(let queue), .queueReleased(let queue):
            text.field("queue", queue.rawValue)
        case .queueDepth(let queue, let operations):
            text.field("queue", queue.rawValue)
            text.field("operations", operations)
        case .operationAdded(let info):
            encodeFields(of: info, into: &text)
        case .ready(let operation, let isReady):
            text.field("operation", operation.rawValue)
            text.field("isReady", isReady)
        case .started(let operation), .cancelled(let operation), .unsignalledFinish(let operation),
             .released(let operation):
            text.field("operation", operation.rawValue)
        case .finished(let operation, let cancelled):
            text.field("operation", operation.rawValue)
            text.field("isCancelled", cancelled)
        case .dependencyAdded(let operation, let dependency), .dependencyRemoved(let operation, let dependency):
            text.field("operation", operation.rawValue)
            text.field("dependency", dependency.rawValue)
        case .priorityChanged(let operation, let priority, let effective):
            text.field("operation", operation.rawValue)
            text.field("priority", word: Vocabulary.priorities.word(for: priority))
            text.field("effectivePriority", word: Vocabulary.priorities.word(for: effective))
        }
    }

    private static func encodeFields(of info: OperationInfo, into text: inout JSONText) {
        text.field("operation", info.id.rawValue)
        if let queue = info.queue { text.field("queue", queue.rawValue) }
        if let name = info.name { text.field("name", string: name) }
        text.field("typeName", string: info.typeName)
        text.field("priority", word: Vocabulary.priorities.word(for: info.priority))
        text.field("effectivePriority", word: Vocabulary.priorities.word(for: info.effectivePriority))
        if let explicit = info.priorityIsExplicit { text.field("priorityIsExplicit", explicit) }
        text.field("qualityOfService", word: Vocabulary.qualities.word(for: info.qualityOfService))
        text.field("isAsynchronous", info.isAsynchronous)
        text.field("isBarrier", info.isBarrier)
        text.field("dependencies", integers: info.dependencies.lazy.map(\.rawValue))
        text.field("observation", word: Vocabulary.operationObservations.word(for: info.observation))
        text.field("isReady", info.isReady)
        text.field("isExecuting", info.isExecuting)
        text.field("isCancelled", info.isCancelled)
    }

    private static func encode(_ header: StreamHeader, into text: inout JSONText) {
        text.open(kind: "header")
        text.key("format")
        text.string(EventCoding.formatName)
        text.field("version", header.version)
        text.field("program", string: header.program)
        text.field("processID", header.processID)
        if let host = header.host { text.field("host", string: host) }
        text.field("startedAt", string: header.startedAt.description)
        text.field("startMonitorTime", header.startMonitorTime)
        text.close()
    }
}
