import EventCoding
import Foundation
import OperationEvents

/// SplitMix64: random tests take a seed, print it when they fail, and replay with
/// `OPSCOPE_SEED=<seed> swift test --filter ...`.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed from `OPSCOPE_SEED` when set, else `fallback`.
    static func seed(default fallback: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["OPSCOPE_SEED"].flatMap { UInt64($0) } ?? fallback
    }
}

enum Samples {
    static let header = StreamHeader(
        program: "pipeline", processID: 4242, host: "build-7",
        startedAt: WallClockTime(iso8601: "2025-03-01T12:34:56.123456789Z")!, startMonitorTime: 1_000_000)

    static let queue = QueueInfo(id: QueueID(2), name: "net", maxConcurrentOperationCount: 3, isSuspended: false,
                                 qualityOfService: .utility, isMainQueue: false, observation: .observed)

    static let operation = OperationInfo(
        id: OperationID(12), queue: QueueID(2), name: "download-1", typeName: "DownloadOperation",
        priority: .high, effectivePriority: .high, priorityIsExplicit: true, qualityOfService: .userInitiated,
        isAsynchronous: true, isBarrier: false, dependencies: [OperationID(3), OperationID(9)],
        observation: .instrumented, isReady: false, isExecuting: false, isCancelled: false)

    /// One change of every kind, in `Kind.allCases` order (`samples(of:)` fails to compile when
    /// a kind is added and not sampled there; `everyKindIsSampled` checks each sample's kind).
    static let changes: [MonitorEvent.Change] = MonitorEvent.Change.Kind.allCases.flatMap(samples(of:))

    /// Changes of `kind`: one, or more where optional fields make lines of different shapes.
    static func samples(of kind: MonitorEvent.Change.Kind) -> [MonitorEvent.Change] {
        switch kind {
        case .queueAppeared: [.queueAppeared(queue)]
        case .queueSuspended: [.queueSuspended(queue: QueueID(2), suspended: true)]
        case .queueMaxConcurrency: [.queueMaxConcurrency(queue: QueueID(2), count: -1)]
        case .queueRenamed: [.queueRenamed(queue: QueueID(2), name: "net (renamed)")]
        case .queueQualityOfService: [.queueQualityOfService(queue: QueueID(2), qos: .background)]
        case .queueCancelledAll: [.queueCancelledAll(queue: QueueID(2))]
        case .queueDepth: [.queueDepth(queue: QueueID(2), operations: 200_000)]
        case .queueReleased: [.queueReleased(queue: QueueID(2))]
        case .operationAdded:
            [.operationAdded(operation),
             .operationAdded(OperationInfo(id: OperationID(13), queue: nil, name: nil, priorityIsExplicit: nil,
                                           observation: .external))]
        case .ready: [.ready(operation: OperationID(12), isReady: true)]
        case .started: [.started(operation: OperationID(12))]
        case .finished: [.finished(operation: OperationID(12), cancelled: true)]
        case .cancelled: [.cancelled(operation: OperationID(12))]
        case .dependencyAdded: [.dependencyAdded(operation: OperationID(12), dependency: OperationID(4))]
        case .dependencyRemoved: [.dependencyRemoved(operation: OperationID(12), dependency: OperationID(4))]
        case .priorityChanged: [.priorityChanged(operation: OperationID(12), priority: .veryLow, effective: .barrier)]
        case .unsignalledFinish: [.unsignalledFinish(operation: OperationID(12))]
        case .released: [.released(operation: OperationID(12))]
        }
    }

    static var events: [MonitorEvent] {
        changes.enumerated().map { index, change in
            MonitorEvent(sequence: UInt64(index), time: 5_000_000 + UInt64(index) * 1000,
                         origin: [.exact, .sampled, .inferred][index % 3], change: change)
        }
    }

    /// Names that are hard to write: quotes, backslashes, every control character, invalid UTF-8
    /// (replaced with U+FFFD when the String is made), emoji, non-Latin scripts, line separators.
    static let awkwardNames: [String] = [
        "", "say \"hi\"", #"C:\path\to\file"#, "tab\tnew\nline\rreturn",
        String(decoding: (0 ..< 32).map { UInt8($0) }, as: UTF8.self),
        String(decoding: [0x66, 0x6F, 0xFF, 0xC3, 0x28, 0xE2, 0x82, 0x6F], as: UTF8.self),
        "👩‍👩‍👧‍👦 🇺🇦 🧵", "日本語のキュー", "\u{2028}\u{2029}\u{7F}\u{FEFF}", "/slashes/ and </script>",
        String(repeating: "long-", count: 2000),
    ]

    /// A random event of any kind, with names from `awkwardNames` and numbers across their ranges.
    static func randomEvent(_ random: inout SeededGenerator, sequence: UInt64) -> MonitorEvent {
        func id() -> Int {
            switch Int.random(in: 0 ..< 4, using: &random) {
            case 0: Int.max
            case 1: Int.random(in: 1 ... 100, using: &random)
            case 2: Int.random(in: Int.min ... Int.max, using: &random)
            default: Int.random(in: 0 ... 1_000_000, using: &random)
            }
        }
        func name() -> String {
            Bool.random(using: &random) ? "op-\(id())" : awkwardNames.randomElement(using: &random)!
        }
        func time() -> UInt64 {
            Bool.random(using: &random) ? UInt64.max - UInt64.random(in: 0 ... 3, using: &random)
                : UInt64.random(in: 0 ... UInt64.max, using: &random)
        }
        let priority = OperationPriority.allCases.randomElement(using: &random)!
        let qos = QoSClass.allCases.randomElement(using: &random)!
        let change: MonitorEvent.Change = switch Int.random(in: 0 ..< 20, using: &random) {
        case 0: .queueAppeared(QueueInfo(
            id: QueueID(id()), name: name(), maxConcurrentOperationCount: id(), isSuspended: .random(using: &random),
            qualityOfService: qos, isMainQueue: .random(using: &random),
            observation: Bool.random(using: &random) ? .observed : .sampled))
        case 1: .queueSuspended(queue: QueueID(id()), suspended: .random(using: &random))
        case 2: .queueMaxConcurrency(queue: QueueID(id()), count: id())
        case 3: .queueRenamed(queue: QueueID(id()), name: name())
        case 4: .queueQualityOfService(queue: QueueID(id()), qos: qos)
        case 5: .queueCancelledAll(queue: QueueID(id()))
        case 6: .queueDepth(queue: QueueID(id()), operations: id())
        case 7: .queueReleased(queue: QueueID(id()))
        case 8, 9: .operationAdded(OperationInfo(
            id: OperationID(id()), queue: Bool.random(using: &random) ? QueueID(id()) : nil,
            name: Bool.random(using: &random) ? name() : nil, typeName: name(), priority: priority,
            effectivePriority: OperationPriority.allCases.randomElement(using: &random)!,
            priorityIsExplicit: [true, false, nil].randomElement(using: &random)!, qualityOfService: qos,
            isAsynchronous: .random(using: &random), isBarrier: .random(using: &random),
            dependencies: (0 ..< Int.random(in: 0 ... 4, using: &random)).map { _ in OperationID(id()) },
            observation: ObservationMode.allCases.randomElement(using: &random)!, isReady: .random(using: &random),
            isExecuting: .random(using: &random), isCancelled: .random(using: &random)))
        case 10: .ready(operation: OperationID(id()), isReady: .random(using: &random))
        case 11, 12: .started(operation: OperationID(id()))
        case 13: .finished(operation: OperationID(id()), cancelled: .random(using: &random))
        case 14: .cancelled(operation: OperationID(id()))
        case 15: .dependencyAdded(operation: OperationID(id()), dependency: OperationID(id()))
        case 16: .dependencyRemoved(operation: OperationID(id()), dependency: OperationID(id()))
        case 17: .priorityChanged(operation: OperationID(id()), priority: priority, effective: priority)
        case 18: .unsignalledFinish(operation: OperationID(id()))
        default: .released(operation: OperationID(id()))
        }
        let origins: [EventOrigin] = [.exact, .sampled, .inferred]
        return MonitorEvent(sequence: sequence, time: time(), origin: origins.randomElement(using: &random)!, change: change)
    }

    /// A keyframe state that stands in for `StreamState` until it lands: the snapshot the stream
    /// starts from today, which is `Codable` the same way.
    static let snapshot = MonitorSnapshot(
        sequence: 7, time: 123_456, queues: [queue], operations: [operation, OperationInfo(id: OperationID(99), name: "a \"b\"\n")],
        droppedEvents: 3)

    /// A whole stream as the lines a writer would produce, and its file bytes.
    static func stream(events: [MonitorEvent], keyframeEvery: Int = 0) throws -> (lines: [StreamLine], bytes: [UInt8]) {
        var lines: [StreamLine] = [.header(header)]
        for (index, event) in events.enumerated() {
            if keyframeEvery > 0, index % keyframeEvery == 0 {
                lines.append(.keyframe(try Keyframe(sequence: event.sequence, time: event.time, state: snapshot)))
            }
            lines.append(.event(event))
        }
        lines.append(.dropped(DroppedMarker(count: 5, sequence: 100, time: 200)))
        lines.append(.end(EndMarker(time: 999, events: events.count, dropped: 5, reason: "finished")))
        return (lines, fileBytes(lines))
    }

    static func fileBytes(_ lines: [StreamLine]) -> [UInt8] {
        var bytes: [UInt8] = []
        for line in lines {
            line.encode(into: &bytes)
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Runs `body` with the path of a fresh temporary file holding `bytes` (none when nil), removed afterwards.
    @discardableResult
    static func withTemporaryFile<Result>(_ bytes: [UInt8]?, _ body: (String) throws -> Result) throws -> Result {
        let path = NSTemporaryDirectory() + "opscope-coding-\(UUID().uuidString).jsonl"
        if let bytes { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }
}

extension [UInt8] {
    var text: String { String(decoding: self, as: UTF8.self) }
}

extension String {
    var bytes: [UInt8] { Array(utf8) }
}
