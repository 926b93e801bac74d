import DashboardModel
import OperationEvents

/// The graph both writers print, computed once from the model: nodes grouped by queue, edges
/// from dependency to dependent, which edges belong to a cycle and which one closes it.
struct ExportedGraph {
    /// One operation.
    struct Node {
        var id: OperationID
        /// `#12 parse` (the app's name, or the type name).
        var title: String
        var style: NodeStyle
        /// Why everything behind it waits, when it is a stuck root cause.
        var root: GraphRoot?
    }

    /// A queue and its operations, in id order.
    struct Group {
        var id: QueueID
        var title: String
        var suspended: Bool
        var nodes: [Node]
    }

    /// An edge from a dependency to the operation that waits for it.
    struct Edge {
        var from: OperationID
        var to: OperationID
        /// Both ends in one dependency cycle.
        var inCycle: Bool
        /// The edge that closes its cycle (drawn dashed).
        var closesCycle: Bool
    }

    /// Queues with their operations, in queue id order.
    var groups: [Group] = []
    /// Operations in no observed queue (known only as a dependency, or their queue released).
    var loose: [Node] = []
    var edges: [Edge] = []

    init(_ model: DashboardModel, options: GraphExportOptions) {
        let records = model.operations.values
            .filter { options.includeFinished || $0.state != .finished }
            .sorted { $0.id < $1.id }
        let shown = Set(records.map(\.id))
        // The closing edge of each cycle: the cycle reads "a waits on b ... waits on a", and the
        // last "waits on" closes it.
        var closing: Set<[Int]> = []
        for cycle in model.cycles where cycle.count >= 2 {
            let waiter = cycle[cycle.count - 2]
            let dependency = cycle[cycle.count - 1]
            closing.insert([dependency.rawValue, waiter.rawValue])
        }
        var byQueue: [QueueID: [Node]] = [:]
        for record in records {
            let node = Node(id: record.id, title: record.label, style: NodeStyle(record, inCycle: model.isInCycle(record.id)),
                            root: GraphRoot.of(record, in: model))
            if let queue = record.queue, let queueRecord = model.queues[queue], !queueRecord.isReleased {
                byQueue[queue, default: []].append(node)
            } else {
                loose.append(node)
            }
            for dependency in record.dependencies where shown.contains(dependency) && dependency != record.id {
                let inCycle = model.isInCycle(record.id) && model.isInCycle(dependency) && model.isCycleEdge(from: record.id, to: dependency)
                edges.append(Edge(from: dependency, to: record.id, inCycle: inCycle,
                                  closesCycle: inCycle && closing.contains([dependency.rawValue, record.id.rawValue])))
            }
        }
        for queue in byQueue.keys.sorted() {
            guard let record = model.queues[queue] else { continue }
            let title = "\(queue) \(record.name)" + (record.isSuspended ? " (suspended)" : "")
            groups.append(Group(id: queue, title: title, suspended: record.isSuspended, nodes: byQueue[queue] ?? []))
        }
        edges.sort { ($0.to, $0.from) < ($1.to, $1.from) }
    }

    /// Every node, queue by queue, then those in no queue.
    var allNodes: [Node] { groups.flatMap(\.nodes) + loose }
}

/// How a node looks: its state, or a cycle or a cancellation, which outrank the state.
enum NodeStyle: String, CaseIterable {
    case executing, ready, pending, finished, cancelled, cycle

    init(_ record: OperationRecord, inCycle: Bool) {
        if inCycle {
            self = .cycle
        } else if record.isCancelled {
            self = .cancelled
        } else {
            switch record.state {
            case .pending: self = .pending
            case .ready: self = .ready
            case .executing: self = .executing
            case .finished: self = .finished
            }
        }
    }

    /// Fill, border and text colours (the dashboard's colours, light enough to read on).
    var colors: (fill: String, stroke: String, text: String) {
        switch self {
        case .executing: ("#b7e4c7", "#2d6a4f", "#000000")
        case .ready: ("#caf0f8", "#0077b6", "#000000")
        case .pending: ("#fff3b0", "#b08900", "#000000")
        case .finished: ("#e9ecef", "#6c757d", "#6c757d")
        case .cancelled: ("#ffccd5", "#c9184a", "#000000")
        case .cycle: ("#f5c2e7", "#9d4edd", "#000000")
        }
    }
}

extension GraphRoot {
    /// The root's words in an exported graph's second line (`root: in no queue`).
    var exportWords: String { tag ?? "in a dependency cycle" }
}
