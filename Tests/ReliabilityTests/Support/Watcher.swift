import DashboardModel
import DashboardSession
import Foundation
import OpScope
import OperationBridge
import OperationEvents
import Synchronization
import Testing

/// A dashboard's view of a monitor from the moment the test starts: a subscription whose
/// batches are folded into a model exactly as a session folds them.
struct Watcher {
    private var ingest: EventIngest
    private let monitor: OperationMonitor

    /// Subscribes now and takes the first batch, so that the view starts before the program does.
    init(_ monitor: OperationMonitor, consumer: String = "test dashboard") {
        self.monitor = monitor
        ingest = EventIngest(source: monitor, configuration: .report, consumer: consumer)
        _ = ingest.ingest(budget: .max)
    }

    /// Takes everything the subscription holds and returns the model's report.
    mutating func report() -> OpScopeReport {
        _ = ingest.ingest(budget: .max)
        ingest.advance(to: monitor.now())
        return ingest.model.report()
    }

    /// The model as of the last `report()`.
    var model: DashboardModel { ingest.model }

    mutating func close() { ingest.close() }
}

/// What the program knows of one operation at the end of a test.
struct Truth: Equatable, CustomStringConvertible {
    var state: OperationState
    /// Nil when either is right (a cancel that raced the finish).
    var cancelled: Bool?

    static let finished = Truth(state: .finished, cancelled: false)
    static let cancelled = Truth(state: .finished, cancelled: true)
    static let executing = Truth(state: .executing, cancelled: false)

    var description: String { "\(state.rawValue)\(cancelled.map { $0 ? ", cancelled" : "" } ?? ", maybe cancelled")" }

    func admits(_ operation: OpScopeReport.Operation) -> Bool {
        operation.state == state && (cancelled == nil || operation.cancelled == cancelled)
    }
}

extension OpScopeReport {
    /// The operations by name (the tests name every operation uniquely).
    var byName: [String: OpScopeReport.Operation] {
        Dictionary(operations.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Checks a report made by a consumer that saw the whole program (a dashboard): every operation
/// is there, in its true state.
func expectComplete(_ report: OpScopeReport, _ truth: [String: Truth], _ consumer: String,
                    sourceLocation: SourceLocation = #_sourceLocation) {
    let listed = report.byName
    var wrong: [String] = []
    for (name, expected) in truth.sorted(by: { $0.key < $1.key }) {
        guard let operation = listed[name] else {
            wrong.append("\(name): missing, is \(expected)")
            continue
        }
        if !expected.admits(operation) {
            wrong.append("\(name): shown \(operation.state.rawValue)\(operation.cancelled ? ", cancelled" : ""), is \(expected)")
        }
    }
    let wrongCount = wrong.count
    #expect(wrongCount == 0, "\(consumer): \(wrong.count) wrong of \(truth.count): \(wrong.prefix(12).joined(separator: "; "))",
            sourceLocation: sourceLocation)
}

/// Checks `OpScopeDashboard.report(monitor)` made at the end: it tells the program's past (the
/// monitor's history) as a dashboard that watched from the start does, so it is held to the
/// same standard: every operation there, in its true state.
func expectFinalReport(_ report: OpScopeReport, _ truth: [String: Truth], sourceLocation: SourceLocation = #_sourceLocation) {
    expectComplete(report, truth, "report(monitor)", sourceLocation: sourceLocation)
}

/// A monitor clock the test moves: verdicts that depend on time (grace periods, how long the
/// stream holds an event for its cause) follow what the test does, not how busy the machine is.
final class ManualTime: Sendable {
    private let nanoseconds = Atomic<UInt64>(1_000_000_000)

    var clock: MonitorClock { MonitorClock { [self] in nanoseconds.load(ordering: .acquiring) } }

    func advance(seconds: Double) {
        nanoseconds.wrappingAdd(UInt64(seconds * 1e9), ordering: .acquiringAndReleasing)
    }
}

extension OperationMonitor {
    /// A monitor for these tests: a buffer large enough for the biggest case (the tests count
    /// drops and expect none), on `time` when given.
    static func forTest(time: ManualTime? = nil, buffer: Int = 1 << 18) -> OperationMonitor {
        var configuration = OperationMonitor.Configuration()
        configuration.bufferCapacity = buffer
        if let time { configuration.clock = time.clock }
        return OperationMonitor(configuration: configuration)
    }
}
