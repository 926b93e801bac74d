import DashboardModel
import OperationEvents

/// The components of the dependency graph (`ComponentStructure`) ranked for the whole-graph
/// view: stuck first (the worst root cause first), then running, then waiting, then finished;
/// within a rank, by smallest id. Made again whenever the model's state changes: one pass over
/// the operations in place (no record copied, no dependency looked up by id), and a bucket
/// order of the components, so that a frame of a changing 10,000-operation model stays cheap.
struct GraphComponents: Sendable {
    /// What a component holds at best (lower is more important).
    enum Rank: Int, Sendable, Comparable {
        /// A stuck root cause (a cycle, no queue, a suspended queue, a lost or missing finish).
        case stuck
        /// Something executing.
        case running
        /// Pending or ready work.
        case waiting
        /// Only finished work.
        case finished

        static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One component, as the view orders them.
    struct Component: Sendable {
        /// Its smallest id: it names the component's layout from frame to frame.
        var key: OperationID
        var rank: Rank
        /// Its worst root cause, for the order among stuck components.
        var worstRoot: GraphRoot?
        /// Its number in the structure.
        var number: Int
        /// Operations in it.
        var size: Int
        /// Its shape and its members' states, hashed: equal from one frame to the next, its
        /// drawing is reused.
        var signature: UInt64
    }

    /// Components in display order.
    private(set) var components: [Component] = []
    /// Each structure component's place in `components`.
    private var placeOf: [Int32] = []
    /// Each slot's rank (a `Rank` raw value).
    private var status: [UInt8] = []
    /// Each slot's root cause, if it is one.
    private var roots: [GraphRoot?] = []
    let structure: ComponentStructure

    /// Ranks the components of `structure` by `model`'s state; nil when the structure was not
    /// made from this model's operations (another model with the same structure version).
    init?(_ model: DashboardModel, structure: ComponentStructure, queues: QueueFlags) {
        self.structure = structure
        let count = structure.ids.count
        guard count == model.operations.count else { return nil }
        // The same operations in the same slots (compared on the table's array of ids).
        guard model.operations.keyValues.elementsEqual(structure.ids.lazy.map(\.rawValue)) else { return nil }
        // States first, so that a pending operation's dependencies are read from this array.
        var finished = [Bool](repeating: false, count: count)
        var slot = 0
        model.operations.forEach { record in
            finished[slot] = record.pointee.state == .finished
            slot += 1
        }
        // Written into local arrays through buffers: a stored property written element by
        // element is checked for uniqueness at every write.
        var status = [UInt8](repeating: 0, count: count)
        var roots = [GraphRoot?](repeating: nil, count: count)
        var found = (0..<structure.count).map { number in
            Component(key: structure.keys[number], rank: .finished, worstRoot: nil, number: number,
                      size: structure.memberStart[number + 1] - structure.memberStart[number], signature: structure.shapes[number])
        }
        status.withUnsafeMutableBufferPointer { status in
            roots.withUnsafeMutableBufferPointer { roots in
                found.withUnsafeMutableBufferPointer { found in
                    slot = 0
                    model.operations.forEach { record in
                        let dependencies = Int(structure.dependencyStart[slot])..<Int(structure.dependencyStart[slot + 1])
                        let unfinished = dependencies.contains { !finished[Int(structure.dependencySlots[$0])] }
                        let facts = GraphRoot.Facts(record)
                        let root = GraphRoot.of(facts, in: model, queues: queues, waitsOnUnfinished: unfinished) { _ in
                            record.pointee.dependencies
                        }
                        roots[slot] = root
                        let rank: Rank = root != nil ? .stuck : facts.state == .executing ? .running : facts.state == .finished ? .finished : .waiting
                        status[slot] = UInt8(rank.rawValue)
                        let number = Int(structure.componentOfSlot[slot])
                        let state = UInt64(facts.state.hashCode) | (facts.isCancelled ? 8 : 0) | UInt64((root?.rawValue ?? 15) << 4)
                        found[number].signature = ComponentStructure.mix(found[number].signature, state)
                        if rank < found[number].rank { found[number].rank = rank }
                        if let root { found[number].worstRoot = min(found[number].worstRoot ?? root, root) }
                        slot += 1
                    }
                }
            }
        }
        self.status = status
        self.roots = roots
        // Buckets by (rank, worst root); the structure numbers components by key already.
        func bucket(_ component: Component) -> Int { component.rank.rawValue * 8 + (component.worstRoot?.rawValue ?? 7) }
        var buckets = [[Int]](repeating: [], count: 32)
        for component in found { buckets[bucket(component)].append(component.number) }
        components.reserveCapacity(found.count)
        placeOf = [Int32](repeating: 0, count: found.count)
        for numbers in buckets {
            for number in numbers {
                placeOf[number] = Int32(components.count)
                components.append(found[number])
            }
        }
    }

    /// The place of `id`'s component, if retained.
    func component(of id: OperationID, in model: DashboardModel) -> Int? {
        guard let slot = structure.slot(of: id, in: model), slot < status.count else { return nil }
        return Int(placeOf[Int(structure.componentOfSlot[slot])])
    }

    /// Where to start drawing the component at `place` (and what its budget keeps first): its
    /// root causes, then what executes, each in id order; at most `limit`. Its smallest id when it
    /// has neither.
    func seeds(_ place: Int, limit: Int) -> [OperationID] {
        let component = components[place]
        var roots: [OperationID] = []
        var executing: [OperationID] = []
        for slot in structure.members(component.number) {
            let slot = Int(slot)
            if self.roots[slot] != nil {
                roots.append(structure.ids[slot])
            } else if status[slot] == UInt8(Rank.running.rawValue) {
                executing.append(structure.ids[slot])
            }
        }
        let chosen = roots.sorted() + executing.sorted()
        return chosen.isEmpty ? [component.key] : Array(chosen.prefix(max(1, limit)))
    }

    /// Number of components.
    var count: Int { components.count }
}

extension OperationState {
    /// A small number per state, for hashing.
    var hashCode: Int {
        switch self {
        case .pending: 0
        case .ready: 1
        case .executing: 2
        case .finished: 3
        }
    }
}
