/// Every key, in one list: the help overlay shows all of them and the key bar is derived from
/// the entries marked for it, so the two can never disagree.
public enum KeyBindings {
    public struct Binding: Sendable {
        public var keys: String
        public var action: String
        /// Shown in the bottom key bar: its place there (Help first, Quit last, as htop), the key
        /// label and a short name.
        public var bar: (place: Int, key: String, name: String)?
    }

    public static let all: [Binding] = [
        Binding(keys: "↑ ↓ j k, PgUp PgDn, Home End", action: "move the selection", bar: nil),
        Binding(keys: "Enter / Esc", action: "open details / go back (clear filter, tags)", bar: nil),
        Binding(keys: "Tab / Shift-Tab", action: "next / previous pane", bar: (1, "Tab", "Pane")),
        Binding(keys: "c, F9", action: "cancel the selected (or tagged) operations, after a yes", bar: (2, "F9", "Cancel")),
        Binding(keys: "Space", action: "tag / untag the selected operation", bar: nil),
        Binding(keys: "C", action: "cancel all operations of the selected queue, after a yes", bar: nil),
        Binding(keys: "s", action: "suspend / resume the selected queue", bar: (3, "s", "Suspend")),
        Binding(keys: "+ / -", action: "raise / lower the queue's max concurrency", bar: nil),
        Binding(keys: "a", action: "add work: pick a template", bar: (4, "a", "Add")),
        Binding(keys: ":", action: "command line: :add NAME [xN] [after ID,...] [qos=..] [priority=..]", bar: nil),
        Binding(keys: "/", action: "filter the table (words, or state: queue: qos: name:)", bar: (5, "/", "Filter")),
        Binding(keys: "< / >, I", action: "sort column left / right, invert", bar: (6, "<>", "Sort")),
        Binding(keys: "g", action: "graph: focused layers / whole-graph lane list", bar: (7, "g", "Graph")),
        Binding(keys: "f", action: "graph follows the selection / shows the critical path", bar: nil),
        Binding(keys: "p", action: "pause the display (the queues keep running)", bar: (8, "p", "Pause")),
        Binding(keys: "?, F1", action: "this help", bar: (0, "F1", "Help")),
        Binding(keys: "Ctrl-L", action: "redraw the screen", bar: nil),
        Binding(keys: "q, F10", action: "quit", bar: (9, "F10", "Quit")),
        Binding(keys: "mouse", action: "click selects, wheel scrolls (off with --no-mouse)", bar: nil),
    ]

    /// Key bar entries, in bar order: key label and name.
    public static let bar: [(String, String)] = all.compactMap(\.bar).sorted { $0.place < $1.place }.map { ($0.key, $0.name) }
}
