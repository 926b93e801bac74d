import Foundation
@testable import OperationBridge
import OperationEvents
import Testing

/// The registry files a foreign operation either as hooked (its armed sentinel) or as sampled,
/// in one table, so that a finish turns one into the other with a single lookup. What each
/// kind's accessors may and may not touch of the other is what the monitor relies on.
@Suite("Registry: hooked and sampled operations in one table")
struct ObjectTableTests {
    private func sampled(_ operation: Operation, id: Int) -> SampledEntry {
        SampledEntry(
            id: OperationID(id), operation: operation, queue: nil,
            keys: SampledKeys(isReady: true, isExecuting: false, isFinished: true, isCancelled: false))
    }

    @Test("an operation is filed as one kind at a time; clearing one kind leaves the other")
    func oneKindAtATime() {
        let operation = BlockOperation {}
        let object = ObjectIdentifier(operation)
        let sentinel = FinishSentinel()
        var table = ObjectTable()

        table[hooked: object] = sentinel
        #expect(table[hooked: object] === sentinel)
        #expect(table[sampled: object] == nil)
        // Clearing the sampled kind must not drop the armed sentinel (a sampler tick that
        // forgets a released entry at the same address).
        table[sampled: object] = nil
        #expect(table[hooked: object] === sentinel)

        let entry = sampled(operation, id: 1)
        table[sampled: object] = entry
        #expect(table[sampled: object] === entry)
        #expect(table[hooked: object] == nil)
        table[hooked: object] = nil
        #expect(table[sampled: object] === entry)
        #expect(table.sampledCount == 1)
        table[sampled: object] = nil
        #expect(table.entries.isEmpty)
    }

    @Test("filing a sentinel hands back the dependency-only entry it replaces, so the operation keeps its id")
    func fileHookedReturnsThePrevious() {
        let operation = BlockOperation {}
        let object = ObjectIdentifier(operation)
        var table = ObjectTable()
        let known = sampled(operation, id: 7)
        table[sampled: object] = known

        let sentinel = FinishSentinel()
        guard case .sampled(let previous)? = table.fileHooked(sentinel, for: object) else {
            Issue.record("the dependency-only entry was not handed back")
            return
        }
        #expect(previous === known)
        #expect(table[hooked: object] === sentinel && table[sampled: object] == nil)
        let unknown = BlockOperation {}
        let nothing = table.fileHooked(FinishSentinel(), for: ObjectIdentifier(unknown))
        #expect(nothing == nil)
    }

    @Test("a finish turns the sentinel's entry into the finished operation's, and never replaces another sentinel")
    func finishHooked() {
        let operation = BlockOperation {}
        let object = ObjectIdentifier(operation)
        var table = ObjectTable()
        let sentinel = FinishSentinel()
        table[hooked: object] = sentinel

        let identity = sampled(operation, id: 3)
        let filed = table.finishHooked(object, sentinel: sentinel, becoming: identity)
        #expect(filed)
        #expect(table[sampled: object] === identity && table[hooked: object] == nil)

        // Another sentinel filed under the identifier stays; the late finish is not filed.
        let other = FinishSentinel()
        table[hooked: object] = other
        let late = table.finishHooked(object, sentinel: sentinel, becoming: sampled(operation, id: 4))
        #expect(!late)
        #expect(table[hooked: object] === other)
        #expect(table.sampledCount == 0)
    }

    @Test("an operation's id in one lookup: its sentinel's, or its sampled entry's only while the entry is still this operation's")
    func idOfAnOperation() {
        let operation = BlockOperation {}
        let object = ObjectIdentifier(operation)
        var table = ObjectTable()
        #expect(table.id(of: operation) == nil)
        let sentinel = FinishSentinel()
        sentinel.id = OperationID(5)
        table[hooked: object] = sentinel
        #expect(table.id(of: operation) == OperationID(5))
        table[sampled: object] = sampled(operation, id: 6)
        #expect(table.id(of: operation) == OperationID(6))
        // An entry filed under the identifier for another operation (one released since, whose
        // address the runtime gave to this one) is not this operation's.
        let other = BlockOperation {}
        table[sampled: object] = sampled(other, id: 7)
        #expect(table.id(of: operation) == nil)
    }
}
