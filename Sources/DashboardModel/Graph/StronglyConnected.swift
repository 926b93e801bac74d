/// Tarjan's strongly connected components, iterative (a cycle of 10,000 operations must not
/// overflow the stack), over dense node indices. O(V + E).
enum StronglyConnected {
    /// The components with more than one node, or one node with an edge to itself: the cycles.
    static func cycles(nodeCount: Int, successors: (Int) -> [Int]) -> [[Int]] {
        var index = [Int](repeating: -1, count: nodeCount)
        var lowlink = [Int](repeating: 0, count: nodeCount)
        var onStack = [Bool](repeating: false, count: nodeCount)
        var stack: [Int] = []
        var result: [[Int]] = []
        var counter = 0
        // Explicit DFS frames: node and position in its successor list.
        var frames: [(node: Int, next: Int, successors: [Int])] = []

        for root in 0..<nodeCount where index[root] < 0 {
            frames.append((root, 0, successors(root)))
            index[root] = counter
            lowlink[root] = counter
            counter += 1
            stack.append(root)
            onStack[root] = true
            while !frames.isEmpty {
                let top = frames.count - 1
                let node = frames[top].node
                if frames[top].next < frames[top].successors.count {
                    let successor = frames[top].successors[frames[top].next]
                    frames[top].next += 1
                    if index[successor] < 0 {
                        index[successor] = counter
                        lowlink[successor] = counter
                        counter += 1
                        stack.append(successor)
                        onStack[successor] = true
                        frames.append((successor, 0, successors(successor)))
                    } else if onStack[successor] {
                        lowlink[node] = min(lowlink[node], index[successor])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last?.node {
                    lowlink[parent] = min(lowlink[parent], lowlink[node])
                }
                guard lowlink[node] == index[node] else { continue }
                var component: [Int] = []
                while let member = stack.popLast() {
                    onStack[member] = false
                    component.append(member)
                    if member == node { break }
                }
                if component.count > 1 || successors(node).contains(node) {
                    result.append(component)
                }
            }
        }
        return result
    }

    /// The shortest cycle through `start` inside `members` (breadth-first), as a path that
    /// starts and ends at `start`.
    static func shortestCycle(through start: Int, within members: Set<Int>, successors: (Int) -> [Int]) -> [Int] {
        var parent: [Int: Int] = [:]
        var frontier = [start]
        var head = 0
        while head < frontier.count {
            let node = frontier[head]
            head += 1
            for next in successors(node) where members.contains(next) {
                if next == start {
                    // Walk the parents back from the closing node, then read them forwards.
                    var backwards: [Int] = []
                    var current = node
                    while current != start {
                        backwards.append(current)
                        current = parent[current]!
                    }
                    return [start] + backwards.reversed() + [start]
                }
                if parent[next] == nil, next != start {
                    parent[next] = node
                    frontier.append(next)
                }
            }
        }
        return [start, start]
    }
}
