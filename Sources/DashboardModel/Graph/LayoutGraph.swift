/// A directed graph over dense node indices, for layout. Edges go from a dependency to the
/// operation that waits for it, so they are drawn left to right.
public struct LayoutGraph: Sendable, Equatable {
    /// For each node, the nodes it points to.
    public private(set) var successors: [[Int]]
    /// For each node, the nodes pointing to it.
    public private(set) var predecessors: [[Int]]

    /// A graph of `nodeCount` nodes and no edges.
    public init(nodeCount: Int = 0) {
        successors = Array(repeating: [], count: nodeCount)
        predecessors = Array(repeating: [], count: nodeCount)
    }

    /// A graph from an edge list.
    public init(nodeCount: Int, edges: [(Int, Int)]) {
        self.init(nodeCount: nodeCount)
        for (from, to) in edges { addEdge(from, to) }
    }

    /// The number of nodes.
    public var nodeCount: Int { successors.count }

    /// The number of edges.
    public var edgeCount: Int { successors.reduce(0) { $0 + $1.count } }

    /// Adds a node and returns its index.
    @discardableResult
    public mutating func addNode() -> Int {
        successors.append([])
        predecessors.append([])
        return successors.count - 1
    }

    /// Adds the edge `from` → `to` (ignored if present).
    public mutating func addEdge(_ from: Int, _ to: Int) {
        guard !successors[from].contains(to) else { return }
        successors[from].append(to)
        predecessors[to].append(from)
    }
}
