import DashboardModel

/// Keeps a graph's layout from one frame to the next, so that boxes stay where they are while
/// the graph's structure does not change, and new boxes join without moving the old ones.
///
/// Nodes are known by a key (an operation, a fold) rather than by their index in this frame's
/// graph. Each frame, the memory compares the new graph with the one it laid out:
/// - the same nodes and edges: the layout is reused as it is (no work, nothing moves);
/// - only new nodes and edges: they are inserted incrementally (`LayeredLayout.insertNode`),
///   every existing node keeps its layer and order;
/// - anything removed, an edge that would point backwards, or accumulated edits that made the
///   layout much worse (`isDegraded`): a full layout, once.
public struct GraphLayoutMemory<Key: Hashable & Sendable>: Sendable {
    /// The keys in the layout's node order (old nodes first, new ones appended).
    private(set) var keys: [Key] = []
    private var indexOf: [Key: Int] = [:]
    private var edges: Set<LayeredLayout.Edge> = []
    /// The layout, over the memory's own node order.
    public private(set) var layout = LayeredLayout()
    /// Full layouts computed so far (for tests: a stable graph computes one).
    public private(set) var fullLayouts = 0

    /// An empty memory.
    public init() {}

    /// Lays out a graph whose node `i` is known by `keys[i]`. Returns the layout and, for each of
    /// the layout's real nodes, the index of the node in `graph` it stands for.
    public mutating func layout(_ graph: LayoutGraph, keys newKeys: [Key]) -> (LayeredLayout, [Int]) {
        precondition(newKeys.count == graph.nodeCount, "one key per node")
        var newEdges: [(Key, Key)] = []
        for from in 0..<graph.nodeCount {
            for to in graph.successors[from] { newEdges.append((newKeys[from], newKeys[to])) }
        }
        if !update(newKeys: newKeys, newEdges: newEdges) { rebuild(newKeys: newKeys, newEdges: newEdges) }
        var graphIndex: [Key: Int] = [:]
        for (index, key) in newKeys.enumerated() { graphIndex[key] = index }
        return (layout, keys.map { graphIndex[$0]! })
    }

    /// Tries the cheap paths; false when a full layout is needed.
    private mutating func update(newKeys: [Key], newEdges: [(Key, Key)]) -> Bool {
        guard !keys.isEmpty, !layout.isDegraded else { return false }
        let present = Set(newKeys)
        guard keys.allSatisfy(present.contains) else { return false }
        var wanted: Set<LayeredLayout.Edge> = []
        var added: [(Key, Key)] = []
        for (from, to) in newEdges {
            if let a = indexOf[from], let b = indexOf[to] {
                let edge = LayeredLayout.Edge(a, b)
                wanted.insert(edge)
                if !edges.contains(edge) { added.append((from, to)) }
            } else {
                added.append((from, to))
            }
        }
        // An edge between old nodes that is gone: the structure changed.
        guard edges.allSatisfy(wanted.contains) else { return false }
        let fresh = newKeys.filter { indexOf[$0] == nil }
        if fresh.isEmpty, added.isEmpty { return true }
        // New nodes in an order where each comes after the new nodes it depends on.
        var predecessors: [Key: [Key]] = [:]
        for (from, to) in added { predecessors[to, default: []].append(from) }
        var placed = Set(keys)
        var pending = fresh
        var trial = self
        while !pending.isEmpty {
            guard let next = pending.firstIndex(where: { (predecessors[$0] ?? []).allSatisfy(placed.contains) }) else {
                return false // a cycle among new nodes
            }
            let key = pending.remove(at: next)
            let node = trial.layout.insertNode(predecessors: (predecessors[key] ?? []).map { trial.indexOf[$0]! })
            trial.indexOf[key] = node
            trial.keys.append(key)
            for from in predecessors[key] ?? [] { trial.edges.insert(LayeredLayout.Edge(trial.indexOf[from]!, node)) }
            placed.insert(key)
        }
        // Edges whose target is an old node (their source may be new).
        let freshSet = Set(fresh)
        for (from, to) in added where !freshSet.contains(to) {
            let edge = LayeredLayout.Edge(trial.indexOf[from]!, trial.indexOf[to]!)
            guard !trial.edges.contains(edge) else { continue }
            guard trial.layout.insertEdge(from: edge.from, to: edge.to) else { return false }
            trial.edges.insert(edge)
        }
        self = trial
        return true
    }

    /// A full layout. Nodes it had before are numbered first, in their old reading order (layer,
    /// then place), and edges are added in that order too, so that the layout's initial order
    /// starts from the old picture and the crossing reduction moves as little as it can.
    private mutating func rebuild(newKeys: [Key], newEdges: [(Key, Key)]) {
        var oldPlace: [Key: (Int, Int)] = [:]
        for (node, key) in keys.enumerated() where node < layout.realCount {
            oldPlace[key] = (layout.layer(of: node), layout.position(of: node))
        }
        let known = newKeys.filter { oldPlace[$0] != nil }.sorted { oldPlace[$0]! < oldPlace[$1]! }
        keys = known + newKeys.filter { oldPlace[$0] == nil }
        indexOf = [:]
        for (index, key) in keys.enumerated() { indexOf[key] = index }
        var graph = LayoutGraph(nodeCount: keys.count)
        edges = []
        let numbered = newEdges.map { LayeredLayout.Edge(indexOf[$0.0]!, indexOf[$0.1]!) }.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
        for edge in numbered {
            graph.addEdge(edge.from, edge.to)
            edges.insert(edge)
        }
        layout = LayeredLayout.compute(graph)
        fullLayouts += 1
    }
}
