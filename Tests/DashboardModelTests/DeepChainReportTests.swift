import DashboardModel
import Foundation
import OperationEvents
import Testing

/// Defects 5 and 6 of the event-stream issue: the diagnosis recursed once per link (a stack
/// overflow near 3,000) and every diagnosis carried the whole chain (a report quadratic in the
/// depth). A chain 100,000 deep, on a suspended queue, announced in either order, must now be
/// reported in linear size; this suite ending within its time limit is the proof that nothing
/// hangs (the release benchmark times it: `opscope-bench model --only report`).
@Suite("Model: the report of a chain 100,000 deep", .serialized, .timeLimit(.minutes(5)))
struct DeepChainReportTests {
    static let depth = DeepChainTests.depth

    static func model(dependentsFirst: Bool) -> DashboardModel {
        var model = DashboardModel(configuration: DeepChainTests.configuration)
        DeepChainTests.apply(DeepChainTests.chain(dependentsFirst: dependentsFirst), to: &model)
        return model
    }

    @Test("the JSON report is linear: at most 1.25 KB per operation; each diagnosis names its root, length and next link",
          arguments: [false, true])
    func report(dependentsFirst: Bool) throws {
        let model = Self.model(dependentsFirst: dependentsFirst)
        let report = model.report()
        #expect(report.operations.count == Self.depth && report.diagnoses.count == Self.depth)
        let json = try JSONEncoder().encode(report)
        let perOperation = Double(json.count) / Double(Self.depth)
        #expect(perOperation <= 1_250, "\(perOperation) bytes per operation")

        let deepest = try #require(report.diagnoses.last)
        #expect(deepest.operation == OperationID(Self.depth))
        #expect(deepest.kind == .waitingOnDependencies && deepest.rootCause == OperationID(1))
        #expect(deepest.chainLength == Self.depth && deepest.next == OperationID(Self.depth - 1))
        #expect(deepest.blockers == [OperationID(Self.depth - 1)] && deepest.queue == QueueID(1))
        #expect(deepest.message == "#100000 link waits on #99999 link waits on #99998 link waits on … "
            + "(a chain of 100,000 operations) … #1 link: #1 link is ready but queue q1 'chain' is suspended: resume it (isSuspended = false)")
        let longest = report.diagnoses.map(\.message.utf8.count).max() ?? 0
        #expect(longest < 200, "messages are bounded: \(longest) bytes")
        let first = try #require(report.diagnoses.first)
        #expect(first.kind == .queueSuspended && first.chainLength == 1 && first.next == nil)

        // The whole path is there to be followed, link by link, from the report alone.
        let byOperation = Dictionary(uniqueKeysWithValues: report.diagnoses.map { ($0.operation, $0) })
        let path = Diagnosis.path(from: deepest, through: byOperation)
        #expect(path.count == Self.depth && path.first == OperationID(Self.depth) && path.last == OperationID(1))
        #expect(Diagnosis.path(from: deepest, through: byOperation, limit: 3) == [100_000, 99_999, 99_998])
        #expect(report.warnings.map(\.kind) == [.suspendedQueueWithWork])
    }

    @Test("diagnosis(of:) on the deepest operation alone, and its whole chain on request", arguments: [false, true])
    func deepestAlone(dependentsFirst: Bool) throws {
        let model = Self.model(dependentsFirst: dependentsFirst)
        let diagnosis = try #require(model.diagnosis(of: OperationID(Self.depth)))
        #expect(diagnosis.chainLength == Self.depth && diagnosis.rootCause == OperationID(1))
        let middle = try #require(model.diagnosis(of: OperationID(Self.depth / 2)))
        #expect(middle.chainLength == Self.depth / 2 && middle.next == OperationID(Self.depth / 2 - 1))
        let chain = model.dependencyChain(of: OperationID(Self.depth))
        #expect(chain.count == Self.depth && chain.first == OperationID(Self.depth) && chain.last == OperationID(1))
        #expect(zip(chain, chain.dropFirst()).allSatisfy { $0.rawValue == $1.rawValue + 1 })
    }
}
