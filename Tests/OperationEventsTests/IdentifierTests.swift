import OperationEvents
import Testing

@Suite("Identifiers")
struct IdentifierTests {
    @Test("operations print as #N, queues as qN; both encode as bare integers")
    func printing() throws {
        #expect(OperationID(12).description == "#12")
        #expect(QueueID(2).description == "q2")
        #expect(OperationID(3) < OperationID(4))
    }
}
