/// How much of the past a stream state keeps: finished operations beyond these bounds are
/// trimmed oldest first (and counted per queue), and each operation keeps its latest key changes.
///
/// A live dashboard keeps a little (`dashboard`); the monitor's history keeps much more.
public struct StreamRetention: Codable, Sendable, Equatable {
    /// Finished operations kept at most.
    public var maximumFinished: Int
    /// Finished operations older than this (ns of monitor clock since their finish) are trimmed
    /// when the state is told the time (`trim(now:)`); nil: kept whatever their age.
    public var maximumAge: UInt64?
    /// Key changes kept per operation (at most 255).
    public var historyLimit: Int

    /// Creates a retention.
    public init(maximumFinished: Int, maximumAge: UInt64? = nil, historyLimit: Int = 12) {
        self.maximumFinished = max(0, maximumFinished)
        self.maximumAge = maximumAge
        self.historyLimit = min(255, max(0, historyLimit))
    }

    /// What a live dashboard keeps: 5,000 finished operations, for 30 seconds.
    public static let dashboard = StreamRetention(maximumFinished: 5_000, maximumAge: 30_000_000_000)
}
