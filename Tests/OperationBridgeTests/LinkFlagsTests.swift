import OperationEvents
@testable import OperationBridge
import Testing

/// The quality of service and effective priority an `ObservableOperation` keeps packed in its
/// link word: the packing is by switches, so every case must come back as itself and the
/// indices must agree with the orders the rest of the code uses.
@Suite("Link flags")
struct LinkFlagsTests {
    @Test("every quality of service comes back as itself, at its position in lane order; less urgent is less")
    func qualityOfServiceRoundTrips() {
        for (index, qos) in QoSClass.laneOrder.enumerated() {
            #expect(qos.laneIndex == index)
            #expect(QoSClass(laneIndex: index) == qos)
            // Among other bits, as the operation keeps it.
            let flags = LinkFlags.qos(qos).union([.registered, .ready, .cancelSet, .priorityMask])
            #expect(flags.qualityOfService == qos)
            #expect(flags.effectivePriority == OperationPriority(schedulingIndex: 7) ?? .normal)
        }
        #expect(LinkFlags([.registered, .ready]).qualityOfService == .default, "never set: default")
        // Stored values past the last class (6 and 7 fit the three bits) read as the default.
        for stored: UInt32 in [6, 7] {
            #expect(LinkFlags(rawValue: stored << 12).qualityOfService == .default)
        }
        #expect(QoSClass(laneIndex: -1) == nil && QoSClass(laneIndex: 5) == nil)
        // Declaration order is urgency order: `<` agrees with it for every pair.
        for (low, lower) in QoSClass.allCases.enumerated() {
            for (high, higher) in QoSClass.allCases.enumerated() {
                #expect((lower < higher) == (low < high), "\(lower) < \(higher)")
            }
        }
    }

    @Test("every effective priority comes back as itself, at its position in the scheduling order")
    func effectivePriorityRoundTrips() {
        for (index, priority) in OperationPriority.schedulingOrder.enumerated() {
            #expect(priority.schedulingIndex == index)
            #expect(OperationPriority(schedulingIndex: index) == priority)
            let flags = LinkFlags.effective(priority).union([.registered, .started, .qosMask])
            #expect(flags.effectivePriority == priority)
        }
        #expect(OperationPriority.schedulingOrder.count == OperationPriority.allCases.count)
        for stored: UInt32 in [6, 7] {
            #expect(LinkFlags(rawValue: stored << 8).effectivePriority == .normal)
        }
        #expect(OperationPriority(schedulingIndex: -1) == nil && OperationPriority(schedulingIndex: 6) == nil)
    }
}
