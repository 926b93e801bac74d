import DashboardModel
import OperationEvents

/// The weakly connected components of the retained dependency graph (operations linked by
/// dependencies, either way), as table slots: what the whole-graph view groups by. It depends
/// only on the graph's structure, so the pane keeps it while the model's structure version and
/// operation count stay the same (slots do not move without a structural change), and ranks it
/// again on every state change (`GraphComponents`). One pass over the operations and their edges
/// (union-find over the dense slots), no recursion.
struct ComponentStructure: Sendable {
    /// Each slot's operation.
    private(set) var ids: [OperationID] = []
    /// Each slot's component, numbered in the order of the components' smallest ids.
    private(set) var componentOfSlot: [Int32] = []
    /// Members of each component, as slots, in slot order: component `c` is
    /// `memberSlots[memberStart[c]..<memberStart[c + 1]]`.
    private(set) var memberSlots: [Int32] = []
    private(set) var memberStart: [Int] = [0]
    /// Each component's smallest id: it names the component's layout from frame to frame.
    private(set) var keys: [OperationID] = []
    /// Each slot's retained dependencies, as slots: `dependencySlots[dependencyStart[s]..<dependencyStart[s + 1]]`.
    private(set) var dependencySlots: [Int32] = []
    private(set) var dependencyStart: [Int32] = [0]
    /// Each component's shape, hashed: its members' ids and queues and their dependencies. With
    /// the members' states (`GraphComponents`) it tells whether a group's drawing still holds.
    private(set) var shapes: [UInt64] = []

    /// Number of components.
    var count: Int { keys.count }

    /// The components of `model`'s retained graph.
    init(_ model: DashboardModel) {
        let count = model.operations.count
        guard count > 0 else { return }
        var parent = [Int32](repeating: 0, count: count)
        for index in 0..<count { parent[index] = Int32(index) }
        ids = [OperationID](repeating: OperationID(0), count: count)
        dependencyStart.reserveCapacity(count + 1)
        dependencySlots.reserveCapacity(count * 2)
        var slotShape = [UInt64](repeating: 0, count: count)
        // Ids are small consecutive integers: while they span at most a few times the count, a
        // dependency's slot is read from a plain array indexed by id, which is small and read
        // near where it was read last, instead of from the table's hashed index (a cache miss
        // per dependency at 10,000 operations).
        var (lowest, highest) = (Int.max, Int.min)
        // From the table's array of ids: no record is read for them.
        for (slot, raw) in model.operations.keyValues.enumerated() {
            ids[slot] = OperationID(raw)
            (lowest, highest) = (min(lowest, raw), max(highest, raw))
        }
        var slotOfID: [Int32] = []
        if highest - lowest < 4 * count {
            slotOfID = [Int32](repeating: -1, count: highest - lowest + 1)
            for (slot, id) in ids.enumerated() { slotOfID[id.rawValue - lowest] = Int32(slot) }
        }
        let dense = !slotOfID.isEmpty
        // The edges first, as slots; then the union-find over a plain buffer (a closure over the
        // array would check exclusive access on every step).
        var slot = 0
        model.operations.forEach { record in
            var shape = Self.mix(UInt64(bitPattern: Int64(ids[slot].rawValue)),
                                 UInt64(bitPattern: Int64(record.pointee.queue?.rawValue ?? -1)))
            for dependency in record.pointee.dependencies {
                let other: Int
                if dense {
                    let offset = dependency.rawValue - lowest
                    guard offset >= 0, offset < slotOfID.count, slotOfID[offset] >= 0 else { continue }
                    other = Int(slotOfID[offset])
                } else {
                    guard let found = model.operations.slot(of: dependency) else { continue }
                    other = found
                }
                dependencySlots.append(Int32(other))
                shape = Self.mix(shape, UInt64(bitPattern: Int64(dependency.rawValue)))
            }
            slotShape[slot] = shape
            dependencyStart.append(Int32(dependencySlots.count))
            slot += 1
        }
        parent.withUnsafeMutableBufferPointer { parent in
            func find(_ start: Int32) -> Int32 {
                var node = start
                while parent[Int(node)] != node {
                    parent[Int(node)] = parent[Int(parent[Int(node)])]
                    node = parent[Int(node)]
                }
                return node
            }
            for slot in 0..<count {
                for edge in Int(dependencyStart[slot])..<Int(dependencyStart[slot + 1]) {
                    let a = find(Int32(slot))
                    let b = find(dependencySlots[edge])
                    if a != b { parent[Int(max(a, b))] = min(a, b) }
                }
            }
            for index in 0..<count { parent[index] = find(Int32(index)) }
        }
        // Dense numbering of the roots, each component's smallest id, then the numbers in key order.
        var number = [Int32](repeating: -1, count: count)
        var firstKeys: [OperationID] = []
        var rootOf = [Int32](repeating: 0, count: count)
        for index in 0..<count {
            let root = Int(parent[index])
            rootOf[index] = Int32(root)
            if number[root] < 0 {
                number[root] = Int32(firstKeys.count)
                firstKeys.append(ids[index])
            } else {
                firstKeys[Int(number[root])] = min(firstKeys[Int(number[root])], ids[index])
            }
        }
        let byKey = firstKeys.indices.sorted { firstKeys[$0] < firstKeys[$1] }
        var renumber = [Int32](repeating: 0, count: byKey.count)
        for (place, component) in byKey.enumerated() { renumber[component] = Int32(place) }
        keys = byKey.map { firstKeys[$0] }
        // Members grouped by a counting sort, in local arrays written through buffers (a stored
        // property written element by element is checked for uniqueness at every write).
        let componentCount = keys.count
        var componentOf = [Int32](repeating: 0, count: count)
        var starts = [Int](repeating: 0, count: componentCount + 1)
        var members = [Int32](repeating: 0, count: count)
        var hashes = [UInt64](repeating: 0, count: componentCount)
        componentOf.withUnsafeMutableBufferPointer { componentOf in
            starts.withUnsafeMutableBufferPointer { starts in
                for index in 0..<count {
                    let component = renumber[Int(number[Int(rootOf[index])])]
                    componentOf[index] = component
                    starts[Int(component) + 1] += 1
                }
                for index in 0..<componentCount { starts[index + 1] += starts[index] }
                var fill = Array(starts.prefix(componentCount))
                members.withUnsafeMutableBufferPointer { members in
                    hashes.withUnsafeMutableBufferPointer { hashes in
                        for index in 0..<count {
                            let component = Int(componentOf[index])
                            members[fill[component]] = Int32(index)
                            fill[component] += 1
                            hashes[component] = Self.mix(hashes[component], slotShape[index])
                        }
                    }
                }
            }
        }
        componentOfSlot = componentOf
        memberStart = starts
        memberSlots = members
        shapes = hashes
    }

    /// Folds `value` into the hash `hash` (a multiply and a shift: cheap enough for every
    /// operation of every frame; a collision only costs a stale drawing of one group).
    @inline(__always)
    static func mix(_ hash: UInt64, _ value: UInt64) -> UInt64 {
        var z = (hash ^ value) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        return z ^ (z >> 27)
    }

    /// The slots of component `component`.
    func members(_ component: Int) -> ArraySlice<Int32> { memberSlots[memberStart[component]..<memberStart[component + 1]] }

    /// The slot of `id`, if the structure holds it.
    func slot(of id: OperationID, in model: DashboardModel) -> Int? {
        guard let slot = model.operations.slot(of: id), slot < ids.count, ids[slot] == id else { return nil }
        return slot
    }
}
