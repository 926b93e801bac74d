import DashboardModel
import OperationEvents
import TerminalKit

/// The words on the boxes, and fitting them into a column: the operation's name is shortened
/// first (ending in `…`, to no fewer than 8 columns), then the queue tag goes, then a root
/// cause's words (its `◆` stays), then the name shortens further, and only then the rest is cut,
/// with `…`. Widths are terminal columns (`TerminalText.columns`: a CJK character or an emoji
/// takes two); text is cut between characters, so never inside a wide character or between a
/// letter and its combining marks.
enum GraphLabels {
    /// `● #12 parse ⇄ ·net ◆ in no queue`. Without `unicode` the asynchronous mark is `<>`, as
    /// the table writes it (the frame's last ASCII pass can only swap one character for one).
    static func operation(_ id: OperationID, _ model: DashboardModel, queues: QueueFlags, tagQueue: Bool,
                          unicode: Bool = true) -> GraphNode {
        let inCycle = model.isInCycle(id)
        return model.operations.read(id) { record in
            let root = GraphRoot.of(record, in: model, queues: queues)
            let glyph = StateGlyph.glyph(state: record.state, cancelled: record.isCancelled, inCycle: inCycle)
            let head = "\(glyph) \(id) "
            let name = Self.singleLine(record.displayName)
            var label = head + name
            let nameRange = head.count..<label.count
            if record.isAsynchronous { label += unicode ? " ⇄" : " <>" }
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

    /// A name as the table shows it, on one line: what could act on the terminal or reorder the
    /// line (escapes, controls, line breaks, bidirectional controls) shown as inert text
    /// (`TerminalText.visible`); CJK, emoji and combining marks as they are. Made once per box.
    static func singleLine(_ text: String) -> String {
        isPlainASCII(text) ? text : TerminalText.visible(text)
    }

    /// True when `text` is printable ASCII only, read from its UTF-8 bytes (the common case: a
    /// label is made for every box of every frame).
    static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Columns `text`, already made visible, takes (`TerminalText.columns` of each character).
    static func columns(_ text: String) -> Int {
        if let columns = simpleColumns(text) { return columns }
        var total = 0
        for character in text { total += TerminalText.columns(character) }
        return total
    }

    /// Columns of `text` when each of its scalars is a character of one column that needs no
    /// escaping: printable below U+0300 (where no scalar joins its neighbours) or one of the
    /// graph's own symbols. Nil otherwise. Most labels are such: measured without breaking them
    /// into characters.
    static func simpleColumns(_ text: String) -> Int? {
        var count = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x20..<0x7F, 0xA0..<0x300,
                 0x2026, 0x21C4, 0x25B8, 0x25C6, 0x25CB, 0x25CF, 0x25D0, 0x2713, 0x2717, 0x27F3:  // … ⇄ ▸ ◆ ○ ● ◐ ✓ ✗ ⟳
                count += 1
            default:
                return nil
            }
        }
        return count
    }

    /// The longest start of `characters` that takes at most `width` columns, and its columns.
    static func prefix(_ characters: some Sequence<Character>, columns width: Int) -> (text: [Character], columns: Int) {
        var kept: [Character] = []
        var used = 0
        for character in characters {
            let columns = TerminalText.columns(character)
            if used + columns > width { break }
            kept.append(character)
            used += columns
        }
        return (kept, used)
    }

    /// A queue's name as a tag: at most 10 columns.
    static func shortQueue(_ name: String) -> String {
        columns(name) <= 10 ? name : String(prefix(name, columns: 9).text) + "…"
    }

    /// `node`'s label in at most `width` columns: the name shortened (to 8 columns at least),
    /// else without the queue tag, else without a root cause's words too (the name then
    /// shortened as far as needed, to 8 at least), else with the name down to 3, else cut with `…`.
    /// The root's words outlast the queue tag: they say why the work below waits, which is what
    /// the graph is read for; the queue is in the table and the details.
    static func fit(_ node: GraphNode, width: Int) -> String {
        let label = node.label
        guard columns(label) > width else { return label }
        guard width > 1 else { return String(prefix(label, columns: max(0, width)).text) }
        var pieces = LabelPieces(node)
        for step in 0..<3 {
            if step == 1 { pieces.queue = [] }
            if step == 2 { pieces.tag = [] }
            var trial = pieces
            if trial.shortenName(to: width, keeping: 8) { return trial.text }
        }
        if pieces.shortenName(to: width, keeping: 3) { return pieces.text }
        return String(prefix(pieces.characters, columns: width - 1).text) + "…"
    }
}

/// A label cut into the parts `GraphLabels.fit` shortens or leaves out (the label's ranges count
/// characters; what fits is measured in columns).
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

    var characters: [Character] { head + name + middle + queue + between + tag + tail }
    var text: String { String(characters) }

    /// Shortens the name (ending it in `…`) so that the whole fits `width` columns, keeping
    /// `minimum` columns of it (one fewer where a wide character would straddle the cut); false
    /// when that is not enough.
    mutating func shortenName(to width: Int, keeping minimum: Int) -> Bool {
        let nameColumns = Self.columns(name)
        let others = [head, middle, queue, between, tag, tail].reduce(0) { $0 + Self.columns($1) }
        let excess = nameColumns + others - width
        guard excess > 0 else { return true }
        let room = nameColumns - excess - 1
        guard room >= minimum else { return false }
        name = GraphLabels.prefix(name, columns: room).text + ["…"]
        return true
    }

    private static func columns(_ characters: [Character]) -> Int {
        characters.reduce(0) { $0 + TerminalText.columns($1) }
    }
}
