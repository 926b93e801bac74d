import DashboardModel
import TerminalKit

/// The dashboard's looks: styles by meaning, and whether to draw Unicode.
public struct Theme: Sendable {
    /// Draw box drawing and state symbols (false: `--ascii`).
    public var unicode: Bool
    /// Use colours (false: `--no-color`; attributes still mark states).
    public var color: Bool

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

    public var title: Style { colored(.blue, .bold) }
    public var header: Style { Style(attributes: .bold) }
    public var dim: Style { Style(attributes: .dim) }
    public var warning: Style { colored(.yellow, .bold) }
    public var error: Style { colored(.red, .bold) }
    /// A suspended queue: loud in any mode.
    public var suspended: Style { Style(foreground: color ? .white : .default, background: color ? .red : .default, attributes: [.bold, .reverse]) }
    public var keyName: Style { Style(attributes: .reverse) }
    public var focusedFrame: Style { colored(.cyan, .bold) }
    public var frame: Style { colored(.gray) }

    /// A state glyph, or its ASCII stand-in.
    public func glyph(state: OperationState, cancelled: Bool, inCycle: Bool = false) -> String {
        let symbol = StateGlyph.glyph(state: state, cancelled: cancelled, inCycle: inCycle)
        return unicode ? String(symbol) : String(GraphCanvas.ascii(symbol))
    }
}
