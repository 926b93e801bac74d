import Foundation
import Synchronization
@testable import OperationBridge
import Testing

/// The class names the bridge reports: looked up through a cache whose latest entry is read
/// without a lock, so lookups of several classes from several threads at once must each get
/// their own class's name.
@Suite("Type name cache")
struct TypeNameCacheTests {
    private final class ParseOperation: Operation, @unchecked Sendable {}
    private final class RenderOperation: Operation, @unchecked Sendable {}

    @Test("alternating classes on four threads: every lookup names its own class")
    func alternatingClassesOnFourThreads() {
        let cache = TypeNameCache()
        let operations: [Operation] = [ParseOperation(), RenderOperation(), BlockOperation(), ObservableBlockOperation {}]
        let expected = operations.map { String(describing: type(of: $0)) }
        // An atomic, not a `Mutex`: ThreadSanitizer does not see the Synchronization module's
        // futex on Linux and reports the accesses under it as a race.
        let wrong = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var mistakes = 0
            for round in 0..<20_000 {
                let index = (round &* 7 &+ thread) % operations.count
                if cache.name(of: operations[index]).string != expected[index] { mistakes += 1 }
            }
            wrong.wrappingAdd(mistakes, ordering: .relaxed)
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
        // And the names are the classes' own, as the cache gives them.
        #expect(cache.name(of: ParseOperation()).string == "ParseOperation" && cache.name(of: BlockOperation()).string == "BlockOperation")
        // Interned: an announcement copies the position, not a string.
        guard case .interned = cache.name(of: RenderOperation()) else {
            Issue.record("the name was not interned")
            return
        }
    }
}
