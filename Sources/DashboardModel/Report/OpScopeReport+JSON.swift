import OperationEvents

extension OpScopeReport {
    /// The report as compact JSON with sorted keys: the same text `JSONEncoder` writes with
    /// `.sortedKeys`, in a fraction of its time (Foundation's encoder took about 5 s for a report
    /// of 100,000 operations). `JSONDecoder` reads it back into an equal report.
    public func json() -> [UInt8] {
        // About 500 bytes per operation and its diagnosis.
        var writer = ReportJSONWriter(capacity: 4_096 + 320 * operations.count + 220 * diagnoses.count)
        writer.object { report in
            report.field("cycles", cycles)
            report.key("diagnoses")
            report.array(diagnoses) { writer, diagnosis in Self.write(diagnosis, &writer) }
            report.field("droppedEvents", droppedEvents)
            report.key("operations")
            report.array(operations) { writer, operation in Self.write(operation, &writer) }
            report.key("queues")
            report.array(queues) { writer, queue in Self.write(queue, &writer) }
            report.field("time", time)
            report.field("trimmed", trimmed)
            report.key("warnings")
            report.array(warnings) { writer, warning in Self.write(warning, &writer) }
        }
        return writer.bytes
    }

    /// `json()` as a string.
    public func jsonString() -> String { String(decoding: json(), as: UTF8.self) }

    private static func write(_ queue: Queue, _ writer: inout ReportJSONWriter) {
        writer.object { object in
            object.field("cancelled", queue.cancelled)
            object.field("executing", queue.executing)
            object.field("finished", queue.finished)
            object.field("id", queue.id)
            object.field("maxConcurrent", queue.maxConcurrent)
            object.field("name", queue.name)
            object.field("observation", queue.observation.rawValue)
            object.field("pending", queue.pending)
            object.field("ready", queue.ready)
            object.field("released", queue.released)
            object.key("run")
            write(queue.run, &object)
            object.field("suspended", queue.suspended)
            object.field("trimmed", queue.trimmed)
            object.key("wait")
            write(queue.wait, &object)
        }
    }

    private static func write(_ percentiles: LatencyStatistics.Percentiles, _ writer: inout ReportJSONWriter) {
        writer.object { object in
            object.field("count", percentiles.count)
            object.field("p50", percentiles.p50)
            object.field("p90", percentiles.p90)
            object.field("p99", percentiles.p99)
        }
    }

    private static func write(_ operation: Operation, _ writer: inout ReportJSONWriter) {
        writer.object { object in
            object.field("addedAt", operation.addedAt)
            object.field("asynchronous", operation.asynchronous)
            object.field("cancelled", operation.cancelled)
            object.field("dependencies", operation.dependencies)
            object.field("effectivePriority", operation.effectivePriority.description)
            object.field("finishInferred", operation.finishInferred)
            object.field("finishedAt", operation.finishedAt)
            object.field("firstSeenLate", operation.firstSeenLate)
            object.field("id", operation.id)
            object.field("name", operation.name)
            object.field("observation", operation.observation?.rawValue)
            object.field("priority", operation.priority.description)
            object.field("qos", operation.qos.rawValue)
            object.field("queue", operation.queue)
            object.field("readyAt", operation.readyAt)
            if let seen = operation.seen { write(seen, &object) }
            object.field("startedAt", operation.startedAt)
            object.field("state", operation.state.rawValue)
        }
    }

    private static func write(_ seen: Seen, _ writer: inout ReportJSONWriter) {
        writer.key("seen")
        writer.object { object in
            object.field("added", seen.added.rawValue)
            object.field("finished", seen.finished?.rawValue)
            object.field("ready", seen.ready?.rawValue)
            object.field("started", seen.started?.rawValue)
        }
    }

    private static func write(_ diagnosis: Diagnosis, _ writer: inout ReportJSONWriter) {
        writer.object { object in
            object.field("blockers", diagnosis.blockers)
            object.field("chainLength", diagnosis.chainLength)
            object.field("kind", diagnosis.kind.rawValue)
            object.field("message", diagnosis.message)
            object.field("next", diagnosis.next)
            object.field("operation", diagnosis.operation)
            object.field("queue", diagnosis.queue)
            object.field("rootCause", diagnosis.rootCause)
        }
    }

    private static func write(_ warning: Warning, _ writer: inout ReportJSONWriter) {
        writer.object { object in
            object.field("kind", warning.kind.rawValue)
            object.field("message", warning.message)
            object.field("operation", warning.operation)
            object.field("queue", warning.queue)
        }
    }
}
