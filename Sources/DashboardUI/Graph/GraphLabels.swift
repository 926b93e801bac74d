import DashboardModel
import OperationEvents
import TerminalKit

/// The words on the boxes, and fitting them into a column: the operation's name is shortened
/// first (ending in `…`, to no fewer than 8 characters), then a root cause's words go (its `◆`
/// stays), then the queue tag, then the name shortens further, and only then the rest is cut,
/// with `…`.
enum GraphLabels {
    /// `● #12 parse ⇄ ·net ◆ in no queue`.
    static func operation(_ id: OperationID, _ model: DashboardModel, queues: QueueFlags, tagQueue: Bool) -> GraphNode {
        let inCycle = model.isInCycle(id)
        return model.operations.read(id) { record in
            let root = GraphRoot.of(record, in: model, queues: queues)
            let glyph = StateGlyph.glyph(state: record.state, cancelled: record.isCancelled, inCycle: inCycle)
            let head = "\(glyph) \(id) "
            let name = Self.singleLine(record.displayName)
            var label = head + name
            let nameRange = head.count..<label.count
            if record.isAsynchronous { label += " ⇄" }
            var queueRange: Range<Int>?
            if tagQueue, root != .noQueue {
                let start = label.count
                label += " ·" + (record.queue.flatMap { queues.names[$0] }.map { Self.shortQueue(Self.singleLine($0)) } ?? "no queue")
                queueRange = start..<label.count
            }
            var tagRange: Range<Int>?
            if let tag = root?.tag {
                label += " ◆"
                tagRange = label.count..<(label.count + 1 + tag.count)
                label += " " + tag
            }
            var node = GraphNode(key: .operation(id), members: [id], state: record.state, isCancelled: record.isCancelled,
                                 inCycle: inCycle, root: root, label: label, glyph: root != nil && !inCycle ? "◆" : glyph,
                                 nameRange: nameRange)
            node.queueRange = queueRange
            node.tagRange = tagRange
            return node
        } ?? GraphNode(key: .operation(id), members: [id], state: .pending, isCancelled: false, inCycle: false, root: nil,
                       label: "? \(id)", glyph: "?", nameRange: nil)
    }

    /// `✓ 12 finished ▸` (`, 3 cancelled` when some were).
    static func finishedFold(_ members: [OperationID], _ model: DashboardModel) -> GraphNode {
        let cancelled = members.filter { model.operations.read($0) { $0.isCancelled } == true }.count
        let label = "✓ \(members.count) finished" + (cancelled > 0 ? ", \(cancelled) cancelled" : "") + " ▸"
        return GraphNode(key: .finished(members[0]), members: members, state: .finished, isCancelled: false, inCycle: false,
                         root: nil, label: label, glyph: "✓", nameRange: nil)
    }

    /// `×40 ○ thumbnail ▸` (the common name, or its common start and `*`, or the id range).
    static func siblings(_ members: [OperationID], _ model: DashboardModel, like node: GraphNode) -> GraphNode {
        let title = commonName(members, model) ?? "\(members[0]) … \(members[members.count - 1])"
        let glyph = StateGlyph.glyph(state: node.state, cancelled: node.isCancelled)
        let head = "×\(members.count) \(glyph) "
        return GraphNode(key: .siblings(members[0]), members: members, state: node.state, isCancelled: node.isCancelled,
                         inCycle: false, root: nil, label: head + title + " ▸", glyph: "×",
                         nameRange: head.count..<(head.count + title.count))
    }

    /// The name the operations share (`thumbnail`), or the start they share (`thumbnail-*`, three
    /// characters at least); nil when they have little in common.
    static func commonName(_ members: [OperationID], _ model: DashboardModel) -> String? {
        let names = members.prefix(200).map { id in model.operations.read(id) { Self.singleLine($0.displayName) } ?? "" }
        guard var common = names.first else { return nil }
        if names.allSatisfy({ $0 == common }) { return common }
        for name in names.dropFirst() where !name.hasPrefix(common) {
            common = String(zip(common, name).prefix { $0.0 == $0.1 }.map(\.0))
        }
        return common.count >= 3 ? common + "*" : nil
    }

    /// A name as one line of one-column characters, as the graph's canvas needs them: line breaks
    /// and other control characters become spaces, what else could act on the terminal is shown
    /// as inert text (`TerminalText.visible`), and characters a terminal draws two columns wide
    /// become `?`, so that a label's length is its width. Made once per box.
    static func singleLine(_ text: String) -> String {
        guard !isPlainASCII(text) else { return text }
        let spaced = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
        return String(TerminalText.visible(spaced).map { TerminalText.columns($0) == 2 ? "?" : $0 })
    }

    /// True when `text` is printable ASCII only, read from its UTF-8 bytes (the common case: a
    /// label is made for every box of every frame).
    static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// A queue's name as a tag: at most 10 columns.
    static func shortQueue(_ name: String) -> String {
        name.count <= 10 ? name : String(name.prefix(9)) + "…"
    }

    /// `node`'s label in at most `width` columns: the name shortened (to 8 characters at
    /// least), else without a root cause's words, else without the queue tag too (the name then
    /// shortened as far as needed, to 8 at least), else with the name down to 3, else cut with `…`.
    static func fit(_ node: GraphNode, width: Int) -> String {
        let label = node.label
        guard label.count > width else { return label }
        guard width > 1 else { return String(label.prefix(max(0, width))) }
        var pieces = LabelPieces(node)
        for step in 0..<3 {
            if step == 1 { pieces.tag = [] }
            if step == 2 { pieces.queue = [] }
            var trial = pieces
            if trial.shortenName(to: width, keeping: 8) { return trial.text }
        }
        if pieces.shortenName(to: width, keeping: 3) { return pieces.text }
        return String(pieces.text.prefix(width - 1)) + "…"
    }
}

/// A label cut into the parts `GraphLabels.fit` shortens or leaves out.
private struct LabelPieces {
    var head: [Character] = []
    var name: [Character] = []
    var middle: [Character] = []
    var queue: [Character] = []
    var between: [Character] = []
    var tag: [Character] = []
    var tail: [Character] = []

    init(_ node: GraphNode) {
        let characters = Array(node.label)
        var position = 0
        func take(upTo end: Int) -> [Character] {
            let end = max(position, min(end, characters.count))
            defer { position = end }
            return Array(characters[position..<end])
        }
        if let range = node.nameRange {
            head = take(upTo: range.lowerBound)
            name = take(upTo: range.upperBound)
        }
        if let range = node.queueRange {
            middle = take(upTo: range.lowerBound)
            queue = take(upTo: range.upperBound)
        }
        if let range = node.tagRange {
            between = take(upTo: range.lowerBound)
            tag = take(upTo: range.upperBound)
        }
        tail = take(upTo: characters.count)
    }

    var count: Int { head.count + name.count + middle.count + queue.count + between.count + tag.count + tail.count }
    var text: String { String(head + name + middle + queue + between + tag + tail) }

    /// Shortens the name (ending it in `…`) so that the whole fits `width`, keeping at least
    /// `minimum` of its characters; false when that is not enough.
    mutating func shortenName(to width: Int, keeping minimum: Int) -> Bool {
        let excess = count - width
        guard excess > 0 else { return true }
        let kept = name.count - excess - 1
        guard kept >= minimum else { return false }
        name = Array(name.prefix(kept)) + ["…"]
        return true
    }
}
