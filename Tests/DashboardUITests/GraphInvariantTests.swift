import DashboardModel
import DashboardUI
import Foundation
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// What the graph must never do, checked on random graphs (seeded; the seed is printed on
/// failure and `OPSCOPE_SEED` replays it): leave out an edge without counting it, draw a
/// dependent before its dependency, or cut a label without a mark.
@Suite("Graph: nothing left out unsaid, on random graphs")
struct GraphInvariantTests {
    /// A random graph: three queues (one suspended), some operations in none, dependencies on
    /// earlier and (sometimes) later operations, so that cycles happen; some operations run, some
    /// finish, some are cancelled.
    static func randomScript(_ random: inout SeededRandom, operations: Int) -> EventScript {
        var script = EventScript()
        script.queue(1, "net", max: 2)
        script.queue(2, "a long queue name", max: 1)
        script.queue(3, "paused", suspended: true)
        for id in 1...operations {
            var dependencies: Set<Int> = []
            for _ in 0..<Int.random(in: 0...3, using: &random) where id > 1 {
                dependencies.insert(Int.random(in: max(1, id - 12)..<id, using: &random))
            }
            if Int.random(in: 0..<25, using: &random) == 0, id + 2 <= operations {
                dependencies.insert(Int.random(in: (id + 1)...min(operations, id + 6), using: &random))
            }
            let queue = Int.random(in: 0..<12, using: &random) == 0 ? nil : Int.random(in: 1...3, using: &random)
            let name = ["fetch", "parse", "resize-\(id)", "a rather long operation name \(id)", "x"][Int.random(in: 0..<5, using: &random)]
            script.add(id, queue: queue, name, after: dependencies.sorted(), async: Int.random(in: 0..<5, using: &random) == 0)
        }
        for id in 1...operations {
            switch Int.random(in: 0..<6, using: &random) {
            case 0: script.start(id)
            case 1: script.run(id)
            case 2: script.cancel(id)
            default: break
            }
        }
        return script
    }

    @Test("every edge between shown operations is drawn, every edge to one left out is counted, dependencies come first",
          arguments: [ViewState.GraphLayout.focused, .all])
    func edges(layout: ViewState.GraphLayout) {
        let seed = SeededRandom.seed(default: layout == .all ? 14 : 41, environment: ProcessInfo.processInfo.environment)
        var random = SeededRandom(seed: seed)
        var seen = (backEdges: 0, hiddenEdges: 0, folds: 0)
        for round in 0..<40 {
            let model = Self.randomScript(&random, operations: Int.random(in: 5...(layout == .all ? 90 : 260), using: &random)).model()
            var state = ViewState()
            state.selection = OperationID(Int.random(in: 1...model.operations.count, using: &random))
            state.graph.layout = layout
            state.graph.expanded = [.finishedGroups]
            if round % 3 == 0 { state.graph.budgetLevel = 2 }
            let blocks = GraphText.pictures(model, state, width: 120).compactMap { $0 }
            check(model, blocks, whole: layout == .all, context: "seed \(seed) round \(round)")
            for block in blocks {
                seen.backEdges += block.backEdges.count
                seen.hiddenEdges += block.hiddenEdges
                seen.folds += block.nodes.filter { $0.members.count > 1 }.count
            }
        }
        // The random graphs hold what is checked: loops, groups cut by their budget, folds.
        #expect(seen.backEdges > 0 && seen.hiddenEdges > 0 && seen.folds > 0, "seed \(seed): \(seen)")
    }

    /// Checks one set of drawn blocks against the model.
    private func check(_ model: DashboardModel, _ blocks: [DrawnBlock], whole: Bool, context: String) {
        var boxOf: [OperationID: (block: Int, box: Int)] = [:]
        for (index, block) in blocks.enumerated() {
            for (box, node) in block.nodes.enumerated() {
                for member in node.members {
                    #expect(boxOf[member] == nil, "\(context): \(member) drawn twice")
                    boxOf[member] = (index, box)
                }
            }
        }
        if whole {
            #expect(boxOf.count + blocks.reduce(0) { $0 + max(0, $1.shownOperations - $1.nodes.reduce(0) { $0 + $1.members.count }) }
                    <= model.operations.count)
        }
        let component = components(model)
        var hidden = [Int](repeating: 0, count: blocks.count)
        for record in model.operations.values {
            for dependency in record.dependencies where model.operations.contains(dependency) {
                switch (boxOf[dependency], boxOf[record.id]) {
                case let (from?, to?):
                    #expect(from.block == to.block, "\(context): \(dependency) → \(record.id) between two groups")
                    guard from.box != to.box, from.block == to.block else { continue }
                    let block = blocks[from.block]
                    let edge = LayeredLayout.Edge(from.box, to.box)
                    #expect(block.edges.contains(edge) || block.backEdges.contains(edge),
                            "\(context): the edge \(dependency) → \(record.id) is not drawn")
                    if block.edges.contains(edge) {
                        let a = block.canvas.placed.first { $0.node == from.box }
                        let b = block.canvas.placed.first { $0.node == to.box }
                        if let a, let b {
                            #expect(a.x + a.width <= b.x, "\(context): \(record.id) drawn before its dependency \(dependency)")
                            #expect(block.canvas.arms(x: b.x - 1, y: b.y).contains(.left),
                                    "\(context): no line enters \(record.id)'s box")
                        }
                    } else {
                        // Drawn apart only when it closes a loop: the dependent reaches the dependency.
                        #expect(reaches(block.edges, from: to.box, to: from.box),
                                "\(context): \(dependency) → \(record.id) drawn as a back edge, but it closes no loop")
                    }
                case let (from?, nil):
                    hidden[from.block] += 1
                case let (nil, to?):
                    hidden[to.block] += 1
                case (nil, nil):
                    // In the whole graph, only a group cut by its budget leaves out edges whole,
                    // and it says so (the count of edges to what it left out).
                    if whole {
                        let group = blocks.firstIndex { block in block.nodes.contains { $0.members.contains { component[$0] == component[record.id] } } }
                        #expect(group.map { blocks[$0].hiddenEdges > 0 } == true,
                                "\(context): \(dependency) → \(record.id): neither end shown, and its group says nothing is left out")
                    }
                }
            }
        }
        for (index, block) in blocks.enumerated() {
            #expect(block.hiddenEdges == hidden[index], "\(context): block \(index) counts \(block.hiddenEdges) hidden edges, \(hidden[index]) are")
            if block.hiddenEdges > 0 { #expect(block.trailer?.text.contains("+\(block.hiddenEdges) edge") == true) }
        }
    }

    /// Each operation's weakly connected component, named by its smallest member.
    private func components(_ model: DashboardModel) -> [OperationID: OperationID] {
        var parent: [OperationID: OperationID] = [:]
        func find(_ id: OperationID) -> OperationID {
            var node = id
            while let next = parent[node], next != node { node = next }
            return node
        }
        for record in model.operations.values {
            if parent[record.id] == nil { parent[record.id] = record.id }
            for dependency in record.dependencies where model.operations.contains(dependency) {
                if parent[dependency] == nil { parent[dependency] = dependency }
                let (a, b) = (find(record.id), find(dependency))
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        return Dictionary(uniqueKeysWithValues: parent.keys.map { ($0, find($0)) })
    }

    /// True when `target` can be reached from `start` along `edges`.
    private func reaches(_ edges: [LayeredLayout.Edge], from start: Int, to target: Int) -> Bool {
        var seen: Set<Int> = [start]
        var frontier = [start]
        while let node = frontier.popLast() {
            if node == target { return true }
            for edge in edges where edge.from == node && seen.insert(edge.to).inserted { frontier.append(edge.to) }
        }
        return false
    }

    @Test("a label is whole, or shortened with … (never cut without a mark), at any pane width")
    func labels() {
        let seed = SeededRandom.seed(default: 7, environment: ProcessInfo.processInfo.environment)
        var random = SeededRandom(seed: seed)
        let model = Self.randomScript(&random, operations: 60).model()
        for width in [20, 33, 47, 80, 120] {
            var state = ViewState()
            state.graph.layout = .all
            state.graph.expanded = [.finishedGroups]
            for block in GraphText.pictures(model, state, width: width).compactMap({ $0 }) {
                let lines = block.canvas.lines()
                for placed in block.canvas.placed {
                    let node = block.nodes[placed.node]
                    let row = Array(lines[placed.y])
                    let drawn = String(row[placed.x..<min(row.count, placed.x + placed.width)])
                    let label = Array(TerminalText.visible(node.label).map { TerminalText.columns($0) == 2 ? "?" : $0 })
                    // The label is written first; the line out of the box follows it.
                    let text = String(drawn.prefix { !"─┬┴┼├┤┌┐└┘│┄┆ ".contains($0) || $0 == " " })
                        .trimmingCharacters(in: .whitespaces)
                    // Whole, or without whole parts (a root cause's words, the queue tag), or cut with a mark.
                    var shorter: [String] = []
                    for (dropTag, dropQueue) in [(true, false), (false, true), (true, true)] {
                        var characters = label
                        for range in [dropTag ? node.tagRange : nil, dropQueue ? node.queueRange : nil].compactMap({ $0 }).sorted(by: { $0.lowerBound > $1.lowerBound }) {
                            characters.removeSubrange(range)
                        }
                        shorter.append(String(characters))
                    }
                    let marked = text.firstIndex(of: "…").map { label.starts(with: text[..<$0]) } ?? false
                    #expect(text == String(label) || shorter.contains(text) || marked,
                            "seed \(seed) width \(width): \(node.label.debugDescription) drawn as \(drawn.debugDescription)")
                    #expect(text.count <= GraphText.labelWidth(paneWidth: width))
                }
            }
        }
    }
}
