import DashboardModel
import OperationEvents

/// One group of the graph as drawn: the operations of one component (or of a blocking chain)
/// that fit its budget, finished work folded per chain, alike siblings folded, long chains elided
/// in the middle, the edges between the boxes (back edges of cycles apart), and what is left
/// out counted.
package struct GraphBlock: Sendable {
    /// The group's identity from frame to frame: its component's smallest id (or the pinned
    /// operation's).
    package var key: OperationID
    /// The boxes, in the order they were reached from the seeds.
    package var nodes: [GraphNode] = []
    /// Edges from a dependency's box to its dependent's box, without the back edges: the
    /// layout's graph, free of cycles.
    package var graph = LayoutGraph()
    /// Edges that close a dependency cycle, drawn apart (dashed, routed back under the boxes).
    package var backEdges: [LayeredLayout.Edge] = []
    /// One sentence per dependency cycle among the boxes: which operations, and which one to
    /// cancel to break it.
    package var banners: [String] = []
    /// Edges from a shown operation to one left out (by the budget).
    package var hiddenEdges = 0
    /// Operations shown (fold members included).
    package var shownOperations = 0

    /// The box of `key`, if shown.
    package func index(of key: GraphNodeKey) -> Int? { nodes.firstIndex { $0.key == key } }

    /// The box standing for operation `id` (itself, or a fold holding it).
    package func index(containing id: OperationID) -> Int? { nodes.firstIndex { $0.members.contains(id) } }
}

/// What to build a block from.
struct BlockRequest {
    /// The block's identity.
    var key: OperationID
    /// Where the walk starts, most important first.
    var seeds: [OperationID]
    /// Boxes at most (a fold costs one); what lies beyond is counted as hidden edges.
    var budget: Int
    /// Operations never folded or elided (the selection, a pinned chain).
    var keep: Set<OperationID>
    /// Folds the person opened.
    var expanded: Set<GraphItemKey>
    /// Unicode marks on the labels (false: `--ascii`).
    var unicode = true
}

extension GraphBlock {
    /// Builds the block: a breadth-first walk from the seeds along dependencies and dependents
    /// (finished work reached is taken a whole chain at a time), then the folds and elisions.
    static func build(_ model: DashboardModel, _ request: BlockRequest, queues: QueueFlags) -> GraphBlock {
        var block = GraphBlock(key: request.key)
        var shown: [OperationID] = []
        var shownSet: Set<OperationID> = []
        var foldOf: [OperationID: Int] = [:]
        var folds: [[OperationID]] = []
        var frontier: [OperationID] = []
        var seen: Set<OperationID> = []
        for seed in request.seeds where model.operations.contains(seed) && seen.insert(seed).inserted { frontier.append(seed) }
        var head = 0
        var units = 0
        // Records are read through pointers (`withRecord`): a record handed over whole is copied.
        func reach(_ record: UnsafePointer<OperationRecord>) {
            for next in record.pointee.dependencies where seen.insert(next).inserted && model.operations.contains(next) { frontier.append(next) }
            for next in record.pointee.dependents where seen.insert(next).inserted && model.operations.contains(next) { frontier.append(next) }
        }
        while head < frontier.count, units < request.budget {
            let id = frontier[head]
            head += 1
            guard !shownSet.contains(id) else { continue }
            if Self.foldable(id, model, request.keep) {
                let chain = Self.finishedChain(from: id, model, request.keep)
                // Opened when it holds the first of a fold the person opened: counted with the
                // operations that must stay visible, which may be that one (the cursor goes there).
                let opened = !request.expanded.isEmpty && Self.finishedChain(from: id, model, []).contains {
                    request.expanded.contains(.node(.finished($0)))
                }
                if chain.count > 1, !opened {
                    for member in chain {
                        shownSet.insert(member)
                        shown.append(member)
                        foldOf[member] = folds.count
                        seen.insert(member)
                    }
                    folds.append(chain.sorted())
                    units += 1
                    for member in chain { model.operations.withRecord(member) { reach($0) } }
                    continue
                }
            }
            shownSet.insert(id)
            shown.append(id)
            units += 1
            model.operations.withRecord(id) { reach($0) }
        }
        block.shownOperations = shown.count
        block.assemble(model, shown: shown, shownSet: shownSet, foldOf: foldOf, folds: folds, queues: queues, unicode: request.unicode)
        block.foldSiblings(model, keep: request.keep, expanded: request.expanded)
        block.elideChains(keep: request.keep, expanded: request.expanded)
        block.separateBackEdges()
        block.banners = Self.banners(model, shown: shownSet)
        return block
    }

    /// Finished, and every retained dependency finished: it can be folded with its chain.
    private static func foldable(_ id: OperationID, _ model: DashboardModel, _ keep: Set<OperationID>) -> Bool {
        guard !keep.contains(id), let (state, dependencies) = model.operations.withRecord(id, { ($0.pointee.state, $0.pointee.dependencies) }),
              state == .finished else { return false }
        return dependencies.allSatisfy { (model.operations.withRecord($0) { $0.pointee.state } ?? .finished) == .finished }
    }

    /// The foldable finished operations connected to `start` through foldable ones.
    private static func finishedChain(from start: OperationID, _ model: DashboardModel, _ keep: Set<OperationID>) -> [OperationID] {
        var chain = [start]
        var seen: Set<OperationID> = [start]
        var head = 0
        while head < chain.count {
            let id = chain[head]
            head += 1
            guard let (dependencies, dependents) = model.operations.withRecord(id, { ($0.pointee.dependencies, $0.pointee.dependents) })
            else { continue }
            for next in dependencies + dependents where !seen.contains(next) && foldable(next, model, keep) {
                seen.insert(next)
                chain.append(next)
            }
        }
        return chain
    }

    /// Boxes for the shown operations (a fold's members share one), edges between them, and
    /// the edges to operations left out, counted.
    private mutating func assemble(_ model: DashboardModel, shown: [OperationID], shownSet: Set<OperationID>,
                                   foldOf: [OperationID: Int], folds: [[OperationID]], queues: QueueFlags, unicode: Bool) {
        var boxOf: [OperationID: Int] = [:]
        var boxOfFold: [Int: Int] = [:]
        // The boxes name their queue when the block spans queues: edges across queues read as such.
        var queueSet: Set<QueueID?> = []
        for id in shown where foldOf[id] == nil { queueSet.insert(model.operations.withRecord(id) { $0.pointee.queue } ?? nil) }
        let tagQueues = queueSet.count > 1
        for id in shown {
            if let fold = foldOf[id] {
                if let box = boxOfFold[fold] {
                    boxOf[id] = box
                    continue
                }
                boxOfFold[fold] = nodes.count
                boxOf[id] = nodes.count
                nodes.append(GraphLabels.finishedFold(folds[fold], model))
                continue
            }
            boxOf[id] = nodes.count
            nodes.append(GraphLabels.operation(id, model, queues: queues, tagQueue: tagQueues, unicode: unicode))
        }
        graph = LayoutGraph(nodeCount: nodes.count)
        var hidden = 0
        for id in shown {
            guard let to = boxOf[id], let (dependencies, dependents) = model.operations.withRecord(id, { ($0.pointee.dependencies, $0.pointee.dependents) })
            else { continue }
            for dependency in dependencies {
                if let from = boxOf[dependency] {
                    if from != to { graph.addEdge(from, to) }
                } else if model.operations.contains(dependency) {
                    hidden += 1
                }
            }
            for dependent in dependents where !shownSet.contains(dependent) && model.operations.contains(dependent) {
                // A dependent lists its dependency; a stale entry of a dependent that no longer does is not an edge.
                if model.operations.withRecord(dependent, { $0.pointee.dependencies.contains(id) }) == true { hidden += 1 }
            }
        }
        hiddenEdges = hidden
    }

    /// One banner per dependency cycle with a shown member.
    private static func banners(_ model: DashboardModel, shown: Set<OperationID>) -> [String] {
        model.cycles.filter { $0.contains(where: shown.contains) }.map { cycle in
            let members = Array(Set(cycle))
            let breaker = CycleAdvice.operationToCancel(members, model)
            let name = model.operations[breaker]?.label ?? breaker.description
            return "⟳ cycle, never starts: \(model.cycleDescription(cycle)). Cancel \(name) to break it (select it, c)"
        }
    }
}

/// Which operation of a cycle to cancel: cancelling any member lets the others run (a cancelled
/// operation becomes ready and finishes at once), so the one whose cancellation costs least: the
/// fewest operations outside the cycle depend on it; then the smallest id.
enum CycleAdvice {
    static func operationToCancel(_ members: [OperationID], _ model: DashboardModel) -> OperationID {
        let inside = Set(members)
        return members.min { a, b in
            let outside = { (id: OperationID) in
                model.operations.read(id) { $0.dependents.filter { !inside.contains($0) }.count } ?? 0
            }
            return (outside(a), a) < (outside(b), b)
        }!
    }
}
