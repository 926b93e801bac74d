import OperationEvents

extension OpScopeReport {
    /// The report as compact JSON with sorted keys: the same text `JSONEncoder` writes with
    /// `.sortedKeys`, in a fraction of its time (Foundation's encoder took about 5 s for a report
    /// of 100,000 operations). `JSONDecoder` reads it back into an equal report.
    public func json() -> [UInt8] {
        // About 500 bytes per operation and its diagnosis.
        var writer = ReportJSONWriter(capacity: 4_096 + 320 * operations.count + 220 * diagnoses.count)
        writer.object { report in
            report.key("cycles")
            report.array(cycles) { writer, cycle in writer.value(cycle) }
            report.key("diagnoses")
            report.array(diagnoses) { writer, diagnosis in Self.write(diagnosis, &writer) }
            report.key("droppedEvents")
            report.value(droppedEvents)
            report.key("operations")
            report.array(operations) { writer, operation in Self.write(operation, &writer) }
            report.key("queues")
            report.array(queues) { writer, queue in Self.write(queue, &writer) }
            report.key("time")
            report.value(time)
            report.key("trimmed")
            report.value(trimmed)
            report.key("warnings")
            report.array(warnings) { writer, warning in Self.write(warning, &writer) }
        }
        return writer.bytes
    }

    /// `json()` as a string.
    public func jsonString() -> String { String(decoding: json(), as: UTF8.self) }

    private static func write(_ queue: Queue, _ writer: inout ReportJSONWriter) {
        writer.object { object in
            object.key("cancelled")
            object.value(queue.cancelled)
            object.key("executing")
            object.value(queue.executing)
            object.key("finished")
            object.value(queue.finished)
            object.key("id")
            object.value(queue.id)
            object.key("maxConcurrent")
            object.value(queue.maxConcurrent)
            object.key("name")
            object.value(queue.name)
            object.key("observation")
            object.value(queue.observation.rawValue)
            object.key("pending")
            object.value(queue.pending)
            object.key("ready")
            object.value(queue.ready)
            object.key("released")
            object.value(queue.released)
            object.key("run")
            write(queue.run, &object)
            object.key("suspended")
            object.value(queue.suspended)
            object.key("trimmed")
            object.value(queue.trimmed)
            object.key("wait")
            write(queue.wait, &object)
        }
    }

    private static func write(_ percentiles: LatencyStatistics.Percentiles, _ writer: inout ReportJSONWriter) {
        writer.object { object in
            object.key("count")
            object.value(percentiles.count)
            object.key("p50")
            object.value(percentiles.p50)
            object.key("p90")
            object.value(percentiles.p90)
            object.key("p99")
            object.value(percentiles.p99)
        }
    }

    private static func write(_ operation: Operation, _ writer: inout ReportJSONWriter) {
        writer.object { object in
            object.key("addedAt")
            object.value(operation.addedAt)
            object.key("asynchronous")
            object.value(operation.asynchronous)
            object.key("cancelled")
            object.value(operation.cancelled)
            object.key("dependencies")
            object.value(operation.dependencies)
            object.key("effectivePriority")
            object.value(operation.effectivePriority.description)
            if let finishInferred = operation.finishInferred {
                object.key("finishInferred")
                object.value(finishInferred)
            }
            if let finishedAt = operation.finishedAt {
                object.key("finishedAt")
                object.value(finishedAt)
            }
            if let firstSeenLate = operation.firstSeenLate {
                object.key("firstSeenLate")
                object.value(firstSeenLate)
            }
            object.key("id")
            object.value(operation.id)
            object.key("name")
            object.value(operation.name)
            if let observation = operation.observation {
                object.key("observation")
                object.value(observation.rawValue)
            }
            object.key("priority")
            object.value(operation.priority.description)
            object.key("qos")
            object.value(operation.qos.rawValue)
            if let queue = operation.queue {
                object.key("queue")
                object.value(queue)
            }
            if let readyAt = operation.readyAt {
                object.key("readyAt")
                object.value(readyAt)
            }
            if let seen = operation.seen { write(seen, &object) }
            if let startedAt = operation.startedAt {
                object.key("startedAt")
                object.value(startedAt)
            }
            object.key("state")
            object.value(operation.state.rawValue)
        }
    }

    private static func write(_ seen: Seen, _ writer: inout ReportJSONWriter) {
        writer.key("seen")
        writer.object { object in
            object.key("added")
            object.value(seen.added.rawValue)
            if let finished = seen.finished {
                object.key("finished")
                object.value(finished.rawValue)
            }
            if let ready = seen.ready {
                object.key("ready")
                object.value(ready.rawValue)
            }
            if let started = seen.started {
                object.key("started")
                object.value(started.rawValue)
            }
        }
    }

    private static func write(_ diagnosis: Diagnosis, _ writer: inout ReportJSONWriter) {
        writer.object { object in
            object.key("blockers")
            object.value(diagnosis.blockers)
            object.key("chainLength")
            object.value(diagnosis.chainLength)
            object.key("kind")
            object.value(diagnosis.kind.rawValue)
            object.key("message")
            object.value(diagnosis.message)
            if let next = diagnosis.next {
                object.key("next")
                object.value(next)
            }
            object.key("operation")
            object.value(diagnosis.operation)
            if let queue = diagnosis.queue {
                object.key("queue")
                object.value(queue)
            }
            if let root = diagnosis.rootCause {
                object.key("rootCause")
                object.value(root)
            }
        }
    }

    private static func write(_ warning: Warning, _ writer: inout ReportJSONWriter) {
        writer.object { object in
            object.key("kind")
            object.value(warning.kind.rawValue)
            object.key("message")
            object.value(warning.message)
            if let operation = warning.operation {
                object.key("operation")
                object.value(operation)
            }
            if let queue = warning.queue {
                object.key("queue")
                object.value(queue)
            }
        }
    }
}
