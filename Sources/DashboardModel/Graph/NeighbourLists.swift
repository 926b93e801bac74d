/// One list of neighbours per real node of a layout, all in two flat arrays: each list is a
/// chain of entries linked through `next`, appended at its tail, read in the order appended.
/// A 10,000-node layout had 20,000 small arrays (one above, one below, per node) to allocate,
/// fill and free with every full layout; these are four arrays, and a node added by an
/// incremental edit is one more entry in each.
struct NeighbourLists: Sendable {
    private var head: [Int32] = []
    private var tail: [Int32] = []
    private var values: [Int] = []
    private var next: [Int32] = []

    /// Lists for `count` nodes, all empty; room for `entries` neighbours.
    init(count: Int = 0, entries: Int = 0) {
        head = [Int32](repeating: -1, count: count)
        tail = [Int32](repeating: -1, count: count)
        values.reserveCapacity(entries)
        next.reserveCapacity(entries)
    }

    /// The number of entries in all lists.
    var entryCount: Int { values.count }

    /// A list for one more node.
    mutating func addList() {
        head.append(-1)
        tail.append(-1)
    }

    /// Appends `value` to the list of `node`.
    mutating func append(_ value: Int, to node: Int) {
        let entry = Int32(values.count)
        values.append(value)
        next.append(-1)
        if tail[node] < 0 { head[node] = entry } else { next[Int(tail[node])] = entry }
        tail[node] = entry
    }

    /// True when the list of `node` is empty.
    func isEmpty(_ node: Int) -> Bool { head[node] < 0 }

    /// Calls `body` with each neighbour of `node`, in the order appended.
    @inline(__always)
    func forEach(_ node: Int, _ body: (Int) -> Void) {
        var entry = head[node]
        while entry >= 0 {
            body(values[Int(entry)])
            entry = next[Int(entry)]
        }
    }

    /// The neighbours of `node`, in the order appended.
    func list(_ node: Int) -> [Int] {
        var result: [Int] = []
        forEach(node) { result.append($0) }
        return result
    }
}
