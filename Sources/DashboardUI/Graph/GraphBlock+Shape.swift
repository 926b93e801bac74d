import DashboardModel
import OperationEvents

/// Folding alike siblings, eliding the middle of long chains, and setting back edges apart.
extension GraphBlock {
    /// Operations with the same state, the same dependency boxes and the same dependent boxes
    /// become one box ("×40 ○ thumbnail ▸"): three or more alike in name, or eight or more.
    /// One that must stay visible (the selection) stays apart; the others still fold. Opened
    /// (Enter) when any of the alike operations is the first of a fold the person opened, so that
    /// the group stays open when the cursor then stands on one of them.
    mutating func foldSiblings(_ model: DashboardModel, keep: Set<OperationID>, expanded: Set<GraphItemKey>) {
        struct Signature: Hashable {
            var state: OperationState
            var cancelled: Bool
            var before: [Int]
            var after: [Int]
        }
        var groups: [Signature: [Int]] = [:]
        for (index, node) in nodes.enumerated() {
            guard case .operation = node.key, node.root == nil, !node.inCycle else { continue }
            let before = graph.predecessors[index].sorted()
            let after = graph.successors[index].sorted()
            guard !before.isEmpty || !after.isEmpty else { continue }
            groups[Signature(state: node.state, cancelled: node.isCancelled, before: before, after: after), default: []].append(index)
        }
        var merge: [Int: Int] = [:]
        for alike in groups.values where alike.count >= 3 {
            guard !alike.contains(where: { expanded.contains(.node(.siblings(nodes[$0].members[0]))) }) else { continue }
            let indexes = alike.filter { !keep.contains(nodes[$0].members[0]) }
            guard indexes.count >= 3 else { continue }
            let members = indexes.flatMap { nodes[$0].members }.sorted()
            // A few siblings with names of their own read better one by one; many, or alike, fold.
            guard indexes.count >= 8 || GraphLabels.commonName(members, model) != nil else { continue }
            let first = indexes.min()!
            nodes[first] = GraphLabels.siblings(members, model, like: nodes[first])
            for index in indexes where index != first { merge[index] = first }
        }
        if !merge.isEmpty { collapse(merge) }
    }

    /// A run of five or more operations each with one dependency and one dependent keeps its
    /// first and last; the middle becomes one box ("… 12 more ▸"). An operation that must stay
    /// visible splits the middle, and stays with its two neighbours; the parts of three or more
    /// still fold. Opened (Enter) when any operation of the run is the first of a fold the person
    /// opened.
    mutating func elideChains(keep: Set<OperationID>, expanded: Set<GraphItemKey>) {
        func interior(_ index: Int) -> Bool {
            let node = nodes[index]
            guard case .operation = node.key, node.root == nil, !node.inCycle, node.state != .executing else { return false }
            return graph.predecessors[index].count == 1 && graph.successors[index].count == 1
        }
        var inRun = [Bool](repeating: false, count: nodes.count)
        var merge: [Int: Int] = [:]
        var elided: [(Int, [OperationID])] = []
        for start in nodes.indices where interior(start) && !inRun[start] {
            let previous = graph.predecessors[start][0]
            if interior(previous) && previous != start && !inRun[previous] { continue } // not the run's first
            var run = [start]
            inRun[start] = true
            var current = start
            while let next = graph.successors[current].first, interior(next), !inRun[next] {
                run.append(next)
                inRun[next] = true
                current = next
            }
            guard run.count >= 5, !run.contains(where: { expanded.contains(.node(.elided(nodes[$0].members[0]))) }) else { continue }
            // The middle, less what must stay visible and its neighbours, in parts.
            var visible = Set([0, run.count - 1])
            for (place, index) in run.enumerated() where keep.contains(nodes[index].members[0]) {
                visible.formUnion([place - 1, place, place + 1])
            }
            var parts: [[Int]] = [[]]
            for place in run.indices {
                if visible.contains(place) {
                    if !parts[parts.count - 1].isEmpty { parts.append([]) }
                } else {
                    parts[parts.count - 1].append(run[place])
                }
            }
            for part in parts where part.count >= 3 {
                for index in part.dropFirst() { merge[index] = part[0] }
                elided.append((part[0], part.flatMap { nodes[$0].members }))
            }
        }
        for (index, members) in elided {
            nodes[index] = GraphNode(key: .elided(members[0]), members: members, state: nodes[index].state, isCancelled: false,
                                     inCycle: false, root: nil, label: "… \(members.count) more ▸", glyph: "…", nameRange: nil)
        }
        if !merge.isEmpty { collapse(merge) }
    }

    /// Replaces boxes merged into others (`merge[index]` = the box it joins) and renumbers.
    private mutating func collapse(_ merge: [Int: Int]) {
        var newIndex = [Int](repeating: -1, count: nodes.count)
        var kept: [GraphNode] = []
        for index in nodes.indices where merge[index] == nil {
            newIndex[index] = kept.count
            kept.append(nodes[index])
        }
        for (index, target) in merge { newIndex[index] = newIndex[target] }
        var collapsed = LayoutGraph(nodeCount: kept.count)
        for from in 0..<graph.nodeCount {
            for to in graph.successors[from] where newIndex[from] != newIndex[to] {
                collapsed.addEdge(newIndex[from], newIndex[to])
            }
        }
        nodes = kept
        graph = collapsed
    }

    /// Edges that close a cycle in a depth-first walk (iterative: a cycle can be long) are
    /// taken out of the layout's graph and kept in `backEdges`, drawn apart.
    mutating func separateBackEdges() {
        var state = [UInt8](repeating: 0, count: graph.nodeCount) // 0 new, 1 on the stack, 2 done
        var back: [LayeredLayout.Edge] = []
        var stack: [(node: Int, next: Int)] = []
        for root in 0..<graph.nodeCount where state[root] == 0 {
            stack.append((root, 0))
            state[root] = 1
            while let top = stack.last {
                let successors = graph.successors[top.node]
                if top.next < successors.count {
                    stack[stack.count - 1].next += 1
                    let next = successors[top.next]
                    if state[next] == 0 {
                        state[next] = 1
                        stack.append((next, 0))
                    } else if state[next] == 1 {
                        back.append(LayeredLayout.Edge(top.node, next))
                    }
                } else {
                    state[top.node] = 2
                    stack.removeLast()
                }
            }
        }
        guard !back.isEmpty else { return }
        let closing = Set(back)
        var forward = LayoutGraph(nodeCount: graph.nodeCount)
        for from in 0..<graph.nodeCount {
            for to in graph.successors[from] where !closing.contains(LayeredLayout.Edge(from, to)) { forward.addEdge(from, to) }
        }
        graph = forward
        backEdges = back
    }
}
