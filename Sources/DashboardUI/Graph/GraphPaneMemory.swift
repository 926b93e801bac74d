import DashboardModel
import OperationEvents

/// What the graph pane keeps from one frame to the next: each group's layout (boxes stay where
/// they are), the components of the model last drawn, where the pane is scrolled and panned, and
/// what it drew (for the keys that move the cursor and for the mouse).
public struct GraphPaneMemory: Sendable {
    /// A layout's place in the memory: one per group, and one for the focused pane.
    struct LayoutSlot: Hashable, Sendable {
        enum Kind: Hashable, Sendable { case focused, pinned, group }
        var kind: Kind
        var key: OperationID
    }

    /// A model's identity for caching: what it was computed from changes every one of these.
    struct ModelStamp: Equatable, Sendable {
        var structure: Int
        var state: Int
        var now: UInt64
        var count: Int

        init(_ model: DashboardModel) {
            structure = model.structureVersion
            state = model.stateVersion
            now = model.now
            count = model.operations.count
        }
    }

    /// One thing drawn the cursor can stand on, in the pane's document (rows from the top of
    /// the first group drawn, columns before panning).
    public struct Item: Sendable, Equatable {
        /// What it is.
        public var key: GraphItemKey
        /// Its row in the document.
        public var row: Int
        /// Its first column (before panning; text lines do not pan).
        public var x: Int
        /// Its width.
        public var width: Int
    }

    /// What a drawing was made from: while all of it is the same, the drawing is reused.
    struct DrawingStamp: Equatable, Sendable {
        /// The model it was drawn from; nil for a group of the whole graph, which `content` names.
        var model: ModelStamp?
        /// A group's shape and states and the queues, hashed (0 when `model` is set).
        var content: UInt64
        var graph: ViewState.GraphState
        var selection: OperationID?
        var width: Int
        var labelWidth: Int
    }

    var layouts: [LayoutSlot: GraphLayoutMemory<GraphNodeKey>] = [:]
    var drawings: [LayoutSlot: (stamp: DrawingStamp, value: DrawnBlock)] = [:]
    /// The frame each layout was last drawn in, and frames drawn so far.
    private var lastUsed: [LayoutSlot: Int] = [:]
    private var frame = 0
    /// Layouts of groups not drawn for this many frames are forgotten; a group that scrolls out
    /// of the pane and back (or whose rank flips, moving the groups on screen) keeps its place.
    static let keptFrames = 64
    /// At most this many layouts are kept.
    static let keptLayouts = 512
    var structure: (structure: Int, count: Int, value: ComponentStructure)?
    var components: (stamp: ModelStamp, value: GraphComponents)?
    var chain: (stamp: ModelStamp, pinned: OperationID, value: [OperationID])?
    /// Columns panned (h, l); kept while the cursor stays, moved to show it when it moves.
    public var panX = 0
    /// The first group shown, and rows scrolled within it.
    var topGroup: OperationID?
    var topRow = 0
    /// The cursor last frame: when it moves, the pane scrolls and pans to show it.
    var lastCursor: GraphItemKey?
    /// The layout last frame (focused or all) and whether compact: switching shows the cursor.
    var lastMode: String = ""
    /// Items drawn last frame, in reading order (top to bottom, left to right).
    public internal(set) var items: [Item] = []
    /// The first item of the group above / below those drawn (the cursor steps there).
    public internal(set) var before: GraphItemKey?
    /// The first item of the group below those drawn.
    public internal(set) var after: GraphItemKey?
    /// The first and last groups' first items (Home, End).
    public internal(set) var first: GraphItemKey?
    /// The last group's first item.
    public internal(set) var last: GraphItemKey?
    /// Columns of the widest drawing last frame, and of the pane.
    public internal(set) var contentWidth = 0
    /// The pane's width last frame.
    public internal(set) var viewWidth = 0
    /// Rows the pane showed last frame.
    public internal(set) var viewHeight = 0
    /// What the pane says on its bottom edge: what is left out, where it is panned and scrolled.
    public internal(set) var note = ""

    /// An empty memory (before the first frame).
    public init() {}

    /// The pan, clamped to the last frame's drawing.
    var clampedPan: Int { max(0, min(panX, contentWidth - viewWidth)) }

    /// The components of `model`, from the last frame's when the model has not changed; their
    /// structure from an earlier frame's while the model's structure has not changed.
    mutating func components(of model: DashboardModel, queues: QueueFlags) -> GraphComponents {
        let stamp = ModelStamp(model)
        if let cached = components, cached.stamp == stamp { return cached.value }
        if let cached = structure, cached.structure == model.structureVersion, cached.count == model.operations.count,
           let value = GraphComponents(model, structure: cached.value, queues: queues) {
            components = (stamp, value)
            return value
        }
        let shape = ComponentStructure(model)
        structure = (model.structureVersion, model.operations.count, shape)
        let value = GraphComponents(model, structure: shape, queues: queues)!
        components = (stamp, value)
        return value
    }

    /// The blocking chain of `pinned` (from it to its root cause, and the cycle when the root
    /// is in one), from the last frame's while the model has not changed.
    mutating func chain(of pinned: OperationID, in model: DashboardModel) -> [OperationID] {
        let stamp = ModelStamp(model)
        if let cached = chain, cached.stamp == stamp, cached.pinned == pinned { return cached.value }
        var value = model.dependencyChain(of: pinned)
        if value.first != pinned { value.insert(pinned, at: 0) }
        if let root = value.last, model.isInCycle(root), let cycle = model.cycles.first(where: { $0.contains(root) }) {
            for member in cycle where !value.contains(member) { value.append(member) }
        }
        chain = (stamp, pinned, value)
        return value
    }

    /// Notes the layouts drawn this frame and forgets those not drawn for a while (they are
    /// laid out again if they come back), the oldest first beyond `keptLayouts`.
    mutating func keepLayouts(_ used: Set<LayoutSlot>) {
        frame += 1
        for slot in used { lastUsed[slot] = frame }
        guard lastUsed.count > Self.keptLayouts || frame % 16 == 0 else { return }
        var keep = lastUsed.filter { frame - $0.value <= Self.keptFrames }
        if keep.count > Self.keptLayouts {
            let newest = keep.sorted { $0.value > $1.value }.prefix(Self.keptLayouts)
            keep = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
        }
        guard keep.count < lastUsed.count else { return }
        lastUsed = keep
        layouts = layouts.filter { keep[$0.key] != nil }
        drawings = drawings.filter { keep[$0.key] != nil }
    }
}
