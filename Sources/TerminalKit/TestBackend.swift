/// A backend for tests: keeps the frames it was given and counts what a terminal backend would
/// have written. Its screen prints as readable text.
public struct TestBackend: Sendable {
    /// What the screen shows now.
    public private(set) var screen: Buffer
    /// Cells sent by the last `draw`, and by all of them.
    public private(set) var lastCellsWritten = 0
    public private(set) var totalCellsWritten = 0

    /// A blank screen of `width` × `height`.
    public init(width: Int, height: Int) {
        screen = Buffer(width: width, height: height)
    }

    /// Shows a new frame: applies only the changed runs, like a terminal backend.
    public mutating func draw(_ frame: Buffer) {
        let previous: Buffer? = screen.width == frame.width && screen.height == frame.height ? screen : nil
        if previous == nil { screen = Buffer(width: frame.width, height: frame.height) }
        let runs = frame.changes(since: previous)
        lastCellsWritten = 0
        for run in runs {
            for (offset, cell) in run.cells.enumerated() { screen[run.x + offset, run.y] = cell }
            lastCellsWritten += run.cells.count
        }
        totalCellsWritten += lastCellsWritten
    }

    /// The screen as text.
    public var text: String { screen.text }
}
