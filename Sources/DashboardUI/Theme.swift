import DashboardModel
import TerminalKit

/// The dashboard's looks: styles by meaning, and whether to draw Unicode.
public struct Theme: Sendable {
    /// Draw box drawing and state symbols (false: `--ascii`).
    public var unicode: Bool
    /// Use colours (false: `--no-color`; attributes still mark states).
    public var color: Bool

    /// A theme.
    public init(unicode: Bool = true, color: Bool = true) {
        self.unicode = unicode
        self.color = color
    }

    private func colored(_ foreground: Color, _ attributes: Attributes = []) -> Style {
        Style(foreground: color ? foreground : .default, attributes: attributes)
    }

    /// How an operation in a state looks.
    public func style(state: OperationState, cancelled: Bool, inCycle: Bool = false) -> Style {
        if inCycle { return colored(.magenta, .bold) }
        if cancelled { return colored(.red, state == .finished ? .dim : []) }
        switch state {
        case .pending: return colored(.yellow, color ? [] : .dim)
        case .ready: return colored(.cyan)
        case .executing: return colored(.green, .bold)
        case .finished: return colored(.gray, .dim)
        }
    }

    /// The title bar.
    public var title: Style { colored(.blue, .bold) }
    /// Headings and labels.
    public var header: Style { Style(attributes: .bold) }
    /// Secondary text.
    public var dim: Style { Style(attributes: .dim) }
    /// Warnings and questions.
    public var warning: Style { colored(.yellow, .bold) }
    /// Errors.
    public var error: Style { colored(.red, .bold) }
    /// A suspended queue: loud in any mode.
    public var suspended: Style { Style(foreground: color ? .white : .default, background: color ? .red : .default, attributes: [.bold, .reverse]) }
    /// Names in the key bar.
    public var keyName: Style { Style(attributes: .reverse) }
    /// The frame of the pane with the keys.
    public var focusedFrame: Style { colored(.cyan, .bold) }
    /// Other frames, and graph edges.
    public var frame: Style { colored(.gray) }

    /// A queue's limit: its number, or `∞` (`inf` in ASCII: `~` is the sampled marker).
    public func limit(_ queue: QueueRecord) -> String {
        queue.maxConcurrentOperationCount < 0 ? (unicode ? "∞" : "inf") : String(queue.maxConcurrentOperationCount)
    }

    /// Text as this theme writes it: in ASCII, `∞` becomes `inf` and `…` `...` where the text
    /// is made (the last pass over the frame can only swap one character for one).
    public func text(_ text: String) -> String {
        guard !unicode, text.contains(where: { $0 == "∞" || $0 == "→" }) else { return text }
        return text.replacing("∞", with: "inf").replacing("→", with: "->")
    }

    /// The ASCII stand-in for one character, for the last pass over a `--ascii` frame: the
    /// graph's own mapping, except that nothing becomes `~`, which marks sampled changes.
    public static func ascii(_ character: Character) -> Character {
        switch character {
        case "µ": "u"           // `µs` reads `us`
        case "…": "."
        case "∞": "?"           // written as `inf` where the text is made; never `~`
        case "↑": "^"
        case "↓": "v"
        case "←", "«": "<"
        case "»": ">"
        default: GraphCanvas.ascii(character)
        }
    }

    /// The mark after a priority that the queue schedules at another one than was set: `*`, or
    /// `'` in ASCII, where `*` is the executing glyph.
    public var priorityMismatchMark: String { unicode ? "*" : "'" }

    /// What sets a header's badges and a pane's notes apart: ` · `, or `, ` in ASCII, where a
    /// lone dot or slash is a mark of the graph's.
    public var separator: String { unicode ? " · " : ", " }

    /// A state glyph, or its ASCII stand-in.
    public func glyph(state: OperationState, cancelled: Bool, inCycle: Bool = false) -> String {
        let symbol = StateGlyph.glyph(state: state, cancelled: cancelled, inCycle: inCycle)
        return unicode ? String(symbol) : String(Self.ascii(symbol))
    }
}
