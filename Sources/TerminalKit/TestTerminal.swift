/// A terminal for tests: keys are queued by the test, every frame is kept, and waiting returns
/// at once (tests move time with the source's clock, never by sleeping).
public final class TestTerminal: TerminalSurface {
    /// Columns and rows; change it and queue `.resize` to simulate a resize.
    public var size: (width: Int, height: Int)
    /// A signal to deliver (the session ends as it would on SIGINT, SIGTERM or SIGHUP).
    public var pendingSignal: Int32?
    /// What the screen shows, drawn like a real terminal: only changed cells are applied.
    public private(set) var backend: TestBackend
    /// How many frames were drawn, and how many of them were full redraws.
    public private(set) var frameCount = 0
    public private(set) var fullRedraws = 0
    private var keys: [Key] = []

    /// A terminal of `width` × `height`.
    public init(width: Int = 120, height: Int = 40) {
        size = (width, height)
        backend = TestBackend(width: width, height: height)
    }

    /// Queues keys to be read in order.
    public func send(_ keys: Key...) { self.keys += keys }

    /// Queues keys to be read in order.
    public func send(_ keys: [Key]) { self.keys += keys }

    /// Queues the characters of `text` as keys.
    public func type(_ text: String) { keys += text.map { Key.character($0) } }

    /// Keys queued and not yet read.
    public var pendingKeys: Int { keys.count }

    /// The next queued key.
    public func readKey() -> Key? { keys.isEmpty ? nil : keys.removeFirst() }

    /// Applies a frame to the screen.
    public func draw(_ frame: Buffer, full: Bool) {
        frameCount += 1
        if full { fullRedraws += 1 }
        backend.draw(frame)
    }

    /// Returns at once.
    public func waitForInput(seconds: Double) {}

    /// The screen as text, one line per row.
    public var text: String { backend.text }

    /// The screen.
    public var screen: Buffer { backend.screen }
}
