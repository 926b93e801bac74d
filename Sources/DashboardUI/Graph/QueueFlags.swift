import DashboardModel
import OperationEvents

/// What the graph needs of each queue, read once per frame: a queue record per operation would
/// copy the queue's statistics every time. Small queue ids (all of them, in practice) are looked
/// up in an array: the whole-graph view asks once per operation on every state change.
package struct QueueFlags: Sendable {
    /// Suspended and released.
    package struct Flags: Sendable, Equatable {
        package var suspended: Bool
        package var released: Bool
    }

    private var dense: [Flags?] = []
    private var sparse: [QueueID: Flags] = [:]
    /// Queue names, by queue.
    package private(set) var names: [QueueID: String] = [:]
    /// Every queue's id, name and flags, hashed: a drawing made under other queues is redrawn.
    package private(set) var signature: UInt64 = 0

    /// The flags of every queue of `model`.
    package init(_ model: DashboardModel) {
        for queue in model.queues.values {
            let flags = Flags(suspended: queue.isSuspended, released: queue.isReleased)
            let raw = queue.id.rawValue
            if raw >= 0, raw < 4_096 {
                if dense.count <= raw { dense += [Flags?](repeating: nil, count: raw + 1 - dense.count) }
                dense[raw] = flags
            } else {
                sparse[queue.id] = flags
            }
            names[queue.id] = queue.name
            let bits = UInt64(bitPattern: Int64(queue.id.rawValue)) << 2 | (flags.suspended ? 1 : 0) | (flags.released ? 2 : 0)
            signature = ComponentStructure.mix(ComponentStructure.mix(signature, bits), UInt64(bitPattern: Int64(queue.name.hashValue)))
        }
    }

    /// The flags of `queue`, if the model has it.
    @inline(__always)
    package func flags(_ queue: QueueID) -> Flags? {
        let raw = queue.rawValue
        if raw >= 0, raw < dense.count { return dense[raw] }
        return sparse[queue]
    }
}
