import Foundation
@testable import OperationEvents
import OpScopeTestSupport
import Testing

/// Class names interned for the process: one position per name, readable from any thread, and
/// an `OperationInfo` that keeps one codes and compares as the plain name it stands for.
@Suite("Interned type names")
struct TypeNameTableTests {
    @Test("one position per name; each position reads back its name; a full table interns no more")
    func positionsAndCapacity() {
        let table = InternedTypeNames(capacity: 2)
        let download = table.intern("DownloadOperationWithALongName")
        let parse = table.intern("ParseOperation")
        #expect(download != nil && parse != nil && download != parse)
        #expect(table.intern("DownloadOperationWithALongName") == download, "the same name keeps its position")
        #expect(download.map(table.name(at:)) == "DownloadOperationWithALongName")
        #expect(parse.map(table.name(at:)) == "ParseOperation")
        #expect(table.intern("RenderOperation") == nil, "full")
        #expect(table.intern("ParseOperation") == parse, "a known name is still found when full")
        #expect(table.internedCount == 2)
    }

    @Test("four threads interning the same names agree on every position")
    func concurrentInterning() {
        let table = InternedTypeNames(capacity: 64)
        let names = (0..<32).map { "GeneratedOperationClass\($0)" }
        let seen = Locked<[[UInt32?]]>([])
        let misread = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            let order = thread % 2 == 0 ? names : names.reversed()
            var positions = [UInt32?](repeating: nil, count: names.count)
            var wrong = 0
            for name in order {
                let position = table.intern(name)
                positions[names.firstIndex(of: name)!] = position
                // Read back at once, from this thread: the slot was published before the position.
                if let position, table.name(at: position) != name { wrong += 1 }
            }
            seen.withLock { $0.append(positions) }
            misread.withLock { $0 += wrong }
        }
        let all = seen.withLock { $0 }
        #expect(all.count == 4)
        #expect(misread.withLock { $0 } == 0, "every position read back its own name")
        #expect(all.allSatisfy { $0 == all[0] }, "every thread got the same position for each name")
        #expect(Set(all[0].compactMap { $0 }).count == names.count, "distinct names, distinct positions")
        #expect(table.internedCount == names.count)
    }

    @Test("an announcement with an interned name: equal to one with the same text, coded as the text")
    func interningIsInvisible() throws {
        var interned = OperationInfo(id: OperationID(7), queue: QueueID(1), typeName: "")
        interned.typeNameStorage = TypeNameStorage(interning: "ThumbnailRenderingOperation")
        guard case .interned = interned.typeNameStorage else {
            Issue.record("the shared table did not intern the name")
            return
        }
        let text = OperationInfo(id: OperationID(7), queue: QueueID(1), typeName: "ThumbnailRenderingOperation")
        #expect(interned.typeName == "ThumbnailRenderingOperation")
        #expect(interned == text)
        #expect(interned != OperationInfo(id: OperationID(7), queue: QueueID(1), typeName: "OtherOperation"))
        // Two interned names: equal only when they are the same name.
        var other = interned
        other.typeNameStorage = TypeNameStorage(interning: "OtherInternedOperation")
        #expect(other != interned && other.typeName == "OtherInternedOperation")
        var same = other
        same.typeNameStorage = TypeNameStorage(interning: "ThumbnailRenderingOperation")
        #expect(same == interned)

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let coded = String(decoding: try encoder.encode(interned), as: UTF8.self)
        #expect(coded == String(decoding: try encoder.encode(text), as: UTF8.self))
        #expect(coded.contains("\"typeName\":\"ThumbnailRenderingOperation\""), "\(coded)")
        let decoded = try JSONDecoder().decode(OperationInfo.self, from: Data(coded.utf8))
        #expect(decoded == interned && decoded.typeName == "ThumbnailRenderingOperation")

        // Assigning a name replaces the interned one.
        var renamed = interned
        renamed.typeName = "Renamed"
        #expect(renamed.typeName == "Renamed" && interned.typeName == "ThumbnailRenderingOperation")
    }
}
