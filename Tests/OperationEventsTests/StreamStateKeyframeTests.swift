import Foundation
import OpScopeTestSupport
import OperationEvents
import Testing

@Suite("Stream state: the keyframe")
struct StreamStateKeyframeTests {
    /// A state with a bit of everything: a cycle, a deduced finish, a cancelled operation, a
    /// dependency never announced, a released queue, trimmed operations, anomalies and a gap.
    static func richState() -> StreamState {
        var script = pipelineScript()
        script.queue(4, "temporary", max: 1)
        for id in 20...29 {
            script.add(id, queue: 4, "batch", after: id > 20 ? [id - 1] : [])
            script.run(id)
        }
        script.emit(.queueReleased(queue: QueueID(4)))
        script.add(30, queue: 1, "late", after: [99], observation: .hooked)
        script.emit(.unsignalledFinish(operation: 2), source: .sampled)
        script.emit(.started(operation: 77))
        script.emit(.started(operation: 1))
        var state = StreamState(retention: StreamRetention(maximumFinished: 6, historyLimit: 5))
        for event in script.events { state.apply(event) }
        state.apply(MonitorEvent(sequence: state.nextSequence + 3, time: script.time + 1, change: .started(operation: 4)))
        state.noteEventsLost(total: 2)
        return state
    }

    @Test("a keyframe survives JSON, equal to the state it was written from, with readable field names")
    func roundTrip() throws {
        let state = Self.richState()
        #expect(state.counters.anomalies > 0 && state.counters.sequenceGaps == 1 && state.counters.trimmed > 0)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(state)
        let decoded = try JSONDecoder().decode(StreamState.self, from: data)
        #expect(decoded == state)
        // Everything derived is rebuilt: dependents, queue counts, what waits for unannounced ids.
        for record in state.operations.values {
            #expect(Set(decoded[record.id]!.dependents) == Set(record.dependents.filter { state.operations.contains($0) }),
                    "dependents of \(record.id)")
        }
        for queue in state.queues.values { #expect(decoded[queue: queue.id] == queue) }
        let json = try #require(String(data: data, encoding: .utf8))
        for key in ["\"nextSequence\"", "\"retention\"", "\"maximumFinished\":6", "\"operations\"", "\"queues\"", "\"counters\"",
                    "\"anomalies\"", "\"finishedOrder\"", "\"info\"", "\"addedAt\"", "\"history\"", "\"key\":\"isExecuting\"",
                    "\"origin\":\"exact\"", "\"released\":true", "\"trimmed\"", "\"eventsLost\":2"] {
            #expect(json.contains(key), "missing \(key)")
        }
        // The decoded state carries on exactly as the original does.
        var original = state
        var copy = decoded
        let next = MonitorEvent(sequence: state.nextSequence, time: state.time + 1, change: .finished(operation: 1, cancelled: false))
        #expect(original.apply(next) == copy.apply(next))
        #expect(original == copy)
    }

    @Test("a batch can start with a keyframe, coded and decoded with it")
    func batchStart() throws {
        let batch = EventBatch(start: .keyframe(Self.richState()), events: [], droppedTotal: 2)
        let decoded = try JSONDecoder().decode(EventBatch.self, from: try JSONEncoder().encode(batch))
        #expect(decoded == batch)
    }

    @Test("a corrupt keyframe is an error, not a trap")
    func corrupt() throws {
        let data = try JSONEncoder().encode(Self.richState())
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var operations = try #require(object["operations"] as? [Any])
        operations.append(operations[0])
        object["operations"] = operations
        let twice = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StreamState.self, from: twice) }
        object["counters"] = ["anomalies": ["nonsense": 1]]
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StreamState.self, from: try JSONSerialization.data(withJSONObject: object))
        }
    }
}
