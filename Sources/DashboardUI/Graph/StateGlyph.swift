import DashboardModel
import OperationEvents
/// One-character marks for operation states, shared by graph labels and tables.
/// Each has an ASCII stand-in (see `GraphCanvas.ascii`).
public enum StateGlyph {
    /// The mark for an operation: a cycle and a cancellation outrank the state.
    public static func glyph(state: OperationState, cancelled: Bool, inCycle: Bool = false) -> Character {
        if inCycle { return "⟳" }
        if cancelled { return "✗" }
        switch state {
        case .pending: return "○"
        case .ready: return "◐"
        case .executing: return "●"
        case .finished: return "✓"
        }
    }
}
