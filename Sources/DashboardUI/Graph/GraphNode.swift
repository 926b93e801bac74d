import DashboardModel
import OperationEvents

/// A box of the graph, known from one frame to the next (a fold by its first member), for the
/// layout memory, the cursor and the folds a person opened.
public enum GraphNodeKey: Hashable, Sendable {
    /// One operation.
    case operation(OperationID)
    /// Finished work of one chain, folded ("12 finished ▸").
    case finished(OperationID)
    /// Three or more operations alike: same state, same dependencies, same dependents ("×40").
    case siblings(OperationID)
    /// The middle of a long chain ("… 12 more ▸").
    case elided(OperationID)
}

/// Anything in the graph pane the cursor can stand on.
public enum GraphItemKey: Hashable, Sendable {
    /// A box.
    case node(GraphNodeKey)
    /// "+3 edges to hidden operations ▸" under a group (known by its first operation).
    case hiddenEdges(OperationID)
    /// The whole graph's last line: groups in which everything finished.
    case finishedGroups

    /// The operation, when the item is one.
    public var operation: OperationID? {
        if case .node(.operation(let id)) = self { return id }
        return nil
    }
}

/// One box: an operation, or a fold of several.
package struct GraphNode: Sendable, Equatable {
    /// Its identity.
    package var key: GraphNodeKey
    /// The operations it stands for (one, or a fold's members in id order).
    package var members: [OperationID]
    /// The state its colour shows (a fold: its members').
    package var state: OperationState
    /// Cancelled.
    package var isCancelled: Bool
    /// In a dependency cycle.
    package var inCycle: Bool
    /// The root cause it is, if it is one.
    package var root: GraphRoot?
    /// The whole label (`● #12 parse ⇄ ·net ◆ in no queue`, `✓ 12 finished ▸`): the labelled
    /// view fits it into its column.
    package var label: String
    /// Its one cell in the compact view.
    package var glyph: Character
    /// The part of `label` that may be shortened with `…` first (the operation's name).
    package var nameRange: Range<Int>?
    /// The queue tag in `label` (` ·net`), left out first when even the shortened name does not fit.
    package var queueRange: Range<Int>?
    /// The words after a root cause's `◆` in `label` (` in no queue`), left out after the
    /// queue tag (the `◆` stays).
    package var tagRange: Range<Int>?
}
