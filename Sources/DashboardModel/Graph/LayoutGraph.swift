/// A directed graph over dense node indices, for layout. Edges go from a dependency to the
/// operation that waits for it, so they are drawn left to right.
public struct LayoutGraph: Sendable, Equatable {
    /// For each node, the nodes it points to.
    package private(set) var successors: [[Int]]
    /// For each node, the nodes pointing to it.
    package private(set) var predecessors: [[Int]]

    /// A graph of `nodeCount` nodes and no edges.
    package init(nodeCount: Int = 0) {
        successors = Array(repeating: [], count: nodeCount)
        predecessors = Array(repeating: [], count: nodeCount)
    }

    /// A graph from an edge list.
    package init(nodeCount: Int, edges: [(Int, Int)]) {
        self.init(nodeCount: nodeCount)
        for (from, to) in edges { addEdge(from, to) }
    }

    /// The number of nodes.
    package var nodeCount: Int { successors.count }

    /// The number of edges.
    package var edgeCount: Int { successors.reduce(0) { $0 + $1.count } }

    /// Adds a node and returns its index.
    @discardableResult
    package mutating func addNode() -> Int {
        successors.append([])
        predecessors.append([])
        return successors.count - 1
    }

    /// Adds the edge `from` → `to` (ignored if present).
    package mutating func addEdge(_ from: Int, _ to: Int) {
        guard !successors[from].contains(to) else { return }
        successors[from].append(to)
        predecessors[to].append(from)
    }
}
