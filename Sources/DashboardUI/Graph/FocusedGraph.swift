import DashboardModel
import OperationEvents

/// The part of the dependency graph the layered view shows: the selected operation's ancestors
/// and descendants (or, without a selection, the critical path and its neighbours), with
/// finished operations folded per level ("✓ 412 done") and identical siblings folded ("×40").
public struct FocusedGraph: Sendable {
    /// One box of the view.
    public struct Node: Sendable, Equatable {
        /// What the box stands for.
        public enum Kind: Sendable, Equatable {
            /// One operation.
            case operation(OperationID)
            /// Finished operations of one level.
            case finished([OperationID])
            /// Operations alike in name, state and neighbours.
            case siblings([OperationID])
        }

        /// What the box stands for.
        public var kind: Kind
        /// `● #12 parse`, `✓ 412 done`, `×40 ◐ resize`.
        public var label: String
        /// The state its colour shows.
        public var state: OperationState
        /// Cancelled.
        public var isCancelled: Bool
        /// In a dependency cycle.
        public var inCycle: Bool
        /// On the longest chain of unfinished work.
        public var onCriticalPath: Bool
        /// The operation the graph is drawn around.
        public var isFocus: Bool

        /// What the box is, from one frame to the next (a fold is known by its first member).
        public var key: NodeKey {
            switch kind {
            case .operation(let id): .operation(id)
            case .finished(let ids): .finished(ids.min() ?? OperationID(0))
            case .siblings(let ids): .siblings(ids.min() ?? OperationID(0))
            }
        }

        /// The operations the box stands for.
        public var members: [OperationID] {
            switch kind {
            case .operation(let id): [id]
            case .finished(let ids), .siblings(let ids): ids
            }
        }
    }

    /// A box's identity across frames, for `GraphLayoutMemory`.
    public enum NodeKey: Hashable, Sendable {
        /// One operation.
        case operation(OperationID)
        /// Finished operations of a level, known by the first of them.
        case finished(OperationID)
        /// Operations alike, known by the first of them.
        case siblings(OperationID)
    }

    /// The boxes.
    public var nodes: [Node] = []
    /// Edges from a dependency's box to its dependent's box.
    public var graph = LayoutGraph()
    /// Edges that belong to a dependency cycle (drawn dashed).
    public var cycleEdges: Set<LayeredLayout.Edge> = []
    /// The critical path (ids), for highlighting.
    public var criticalPath: [OperationID] = []
    /// Operations left out because the view reached its limit.
    public var omitted = 0

    /// The box showing `id`, if shown.
    public func node(of id: OperationID) -> Int? {
        nodes.firstIndex { $0.members.contains(id) }
    }

    /// Builds the focused graph. At most `limit` operations are considered (ancestors and
    /// descendants split it), before folding.
    public static func build(_ model: DashboardModel, focus: OperationID?, limit: Int = 240) -> FocusedGraph {
        var result = FocusedGraph()
        result.criticalPath = model.criticalPath()
        let critical = Set(result.criticalPath)
        var chosen: [OperationID] = []
        var seen: Set<OperationID> = []
        func take(_ id: OperationID) {
            if model.operations[id] != nil, seen.insert(id).inserted { chosen.append(id) }
        }
        if let focus, model.operations[focus] != nil {
            take(focus)
            for id in walk(model, from: focus, limit: limit / 2, next: \.dependencies) { take(id) }
            for id in walk(model, from: focus, limit: limit / 2, next: \.dependents) { take(id) }
        } else if !result.criticalPath.isEmpty {
            for id in result.criticalPath.prefix(limit) {
                take(id)
                for neighbour in model.operations[id]!.dependencies + model.operations[id]!.dependents where chosen.count < limit {
                    take(neighbour)
                }
            }
        } else {
            for record in model.operations.values.sorted(by: { $0.enqueueOrder > $1.enqueueOrder }).prefix(min(limit, 40)) {
                take(record.id)
            }
        }
        result.omitted = max(0, model.operations.count - chosen.count)
        result.fold(model, chosen: chosen, focus: focus, critical: critical)
        return result
    }

    /// Breadth-first from `start` along `next`, at most `limit` operations (not including `start`).
    private static func walk(_ model: DashboardModel, from start: OperationID, limit: Int,
                             next: KeyPath<OperationRecord, [OperationID]>) -> [OperationID] {
        var found: [OperationID] = []
        var seen: Set<OperationID> = [start]
        var frontier = [start]
        var head = 0
        while head < frontier.count, found.count < limit {
            guard let record = model.operations[frontier[head]] else {
                head += 1
                continue
            }
            head += 1
            for neighbour in record[keyPath: next] where model.operations[neighbour] != nil && seen.insert(neighbour).inserted {
                found.append(neighbour)
                frontier.append(neighbour)
                if found.count >= limit { break }
            }
        }
        return found
    }

    private mutating func fold(_ model: DashboardModel, chosen: [OperationID], focus: OperationID?, critical: Set<OperationID>) {
        var boxOf: [OperationID: Int] = [:]
        // Finished operations per level, folded when there are two or more.
        var finishedByLevel: [Int: [OperationID]] = [:]
        var remaining: [OperationID] = []
        for id in chosen {
            let record = model.operations[id]!
            if record.state == .finished, id != focus {
                finishedByLevel[record.level, default: []].append(id)
            } else {
                remaining.append(id)
            }
        }
        for level in finishedByLevel.keys.sorted() {
            let ids = finishedByLevel[level]!.sorted()
            if ids.count == 1 {
                remaining.append(ids[0])
                continue
            }
            let cancelled = ids.filter { model.operations[$0]!.isCancelled }.count
            let label = "✓ \(ids.count) done" + (cancelled > 0 ? " (\(cancelled) cancelled)" : "")
            boxOf.merge(ids.map { ($0, nodes.count) }) { $1 }
            nodes.append(Node(kind: .finished(ids), label: label, state: .finished, isCancelled: false, inCycle: false,
                              onCriticalPath: false, isFocus: false))
        }
        // Identical siblings: same name, state, flags and neighbours; three or more fold.
        var groups: [String: [OperationID]] = [:]
        var order: [String] = []
        for id in remaining.sorted() {
            let record = model.operations[id]!
            // The focus and cycle members stay single; critical-path members may fold (the group is marked).
            let signature = id == focus || model.isInCycle(id)
                ? "#\(id.rawValue)"
                : "\(record.displayName)|\(record.state)|\(record.isCancelled)|\(record.dependencies.sorted().map(\.rawValue))|\(record.dependents.sorted().map(\.rawValue))"
            if groups[signature] == nil { order.append(signature) }
            groups[signature, default: []].append(id)
        }
        // When the graph spans queues, each box names its queue: cross-queue edges read as such.
        let queueIDs = Set(chosen.compactMap { model.operations[$0]?.queue })
        func place(_ id: OperationID) -> String {
            guard queueIDs.count > 1 else { return "" }
            guard let queue = model.operations[id]?.queue else { return " ·no queue" }
            return " ·" + (model.queues[queue]?.name ?? queue.description)
        }
        for signature in order {
            let ids = groups[signature]!
            let record = model.operations[ids[0]]!
            let glyph = StateGlyph.glyph(state: record.state, cancelled: record.isCancelled, inCycle: model.isInCycle(ids[0]))
            let single = ids.count < 3
            for id in single ? ids : [ids[0]] {
                let member = model.operations[id]!
                let kind: Node.Kind = single ? .operation(id) : .siblings(ids)
                let label = single
                    ? "\(StateGlyph.glyph(state: member.state, cancelled: member.isCancelled, inCycle: model.isInCycle(id))) \(member.label)\(place(id))"
                    : "×\(ids.count) \(glyph) \(record.displayName)\(place(id))"
                let members = single ? [id] : ids
                boxOf.merge(members.map { ($0, nodes.count) }) { $1 }
                nodes.append(Node(kind: kind, label: label, state: member.state, isCancelled: member.isCancelled,
                                  inCycle: model.isInCycle(id), onCriticalPath: members.contains { critical.contains($0) },
                                  isFocus: members.contains { $0 == focus }))
            }
        }
        graph = LayoutGraph(nodeCount: nodes.count)
        for id in chosen {
            guard let to = boxOf[id] else { continue }
            for dependency in model.operations[id]!.dependencies {
                guard let from = boxOf[dependency], from != to else { continue }
                graph.addEdge(from, to)
                if model.isCycleEdge(from: id, to: dependency) { cycleEdges.insert(LayeredLayout.Edge(from, to)) }
            }
        }
    }
}
