/// Every key, in one list: the help overlay shows all of them and the key bar the main ones, so
/// the two can never disagree with what the keys do.
public enum KeyBindings {
    public struct Binding: Sendable {
        public var keys: String
        public var action: String
        /// Shown in the bottom key bar under this short name.
        public var bar: String?
    }

    public static let all: [Binding] = [
        Binding(keys: "↑ ↓ j k, PgUp PgDn, Home End", action: "move the selection", bar: nil),
        Binding(keys: "Enter / Esc", action: "open details / go back (clear filter, tags)", bar: nil),
        Binding(keys: "Tab / Shift-Tab", action: "next / previous pane", bar: "Pane"),
        Binding(keys: "c, F9", action: "cancel the selected (or tagged) operations, after a yes", bar: "Cancel"),
        Binding(keys: "Space", action: "tag / untag the selected operation", bar: nil),
        Binding(keys: "C", action: "cancel all operations of the selected queue, after a yes", bar: nil),
        Binding(keys: "s", action: "suspend / resume the selected queue", bar: "Suspend"),
        Binding(keys: "+ / -", action: "raise / lower the queue's max concurrency", bar: nil),
        Binding(keys: "a", action: "add work: pick a template", bar: "Add"),
        Binding(keys: ":", action: "command line: :add NAME [xN] [after ID,...] [qos=..] [priority=..]", bar: nil),
        Binding(keys: "/", action: "filter the table (words, or state: queue: qos: name:)", bar: "Filter"),
        Binding(keys: "< / >, I", action: "sort column left / right, invert", bar: "Sort"),
        Binding(keys: "g", action: "graph: focused layers / whole-graph lane list", bar: "Graph"),
        Binding(keys: "f", action: "graph follows the selection / shows the critical path", bar: nil),
        Binding(keys: "p", action: "pause the display (the queues keep running)", bar: "Pause"),
        Binding(keys: "?, F1", action: "this help", bar: "Help"),
        Binding(keys: "Ctrl-L", action: "redraw the screen", bar: nil),
        Binding(keys: "q, F10", action: "quit", bar: "Quit"),
        Binding(keys: "mouse", action: "click selects, wheel scrolls (off with --no-mouse)", bar: nil),
    ]

    /// Key bar entries: key label and name.
    public static let bar: [(String, String)] = [
        ("F1", "Help"), ("Tab", "Pane"), ("F9", "Cancel"), ("s", "Suspend"), ("a", "Add"), ("/", "Filter"),
        ("<>", "Sort"), ("g", "Graph"), ("p", "Pause"), ("F10", "Quit"),
    ]
}
