import OperationEvents

/// How long the dashboard remembers finished work and when it warns.
public struct ModelConfiguration: Sendable, Equatable {
    /// Finished operations stay visible this long (nanoseconds of monitor clock)...
    public var finishedRetention: UInt64 = 30_000_000_000
    /// ...and at most this many are kept; older ones are counted in the queue summaries.
    public var maximumRetainedFinished = 5_000
    /// Warn when an operation has been executing longer than this (ns): an asynchronous one
    /// that never calls `finish()`, a synchronous one whose `main()` never returns.
    public var longExecution: UInt64 = 10_000_000_000
    /// Warn when a cancelled operation is still executing after this long (ns).
    public var cancelledStillExecuting: UInt64 = 2_000_000_000
    /// How long (ns) a pending operation whose dependencies all finished may stay not ready
    /// before it is reported: the ready event follows the last finish, and a report taken in
    /// between must not call that moment a problem.
    public var notReadyGrace: UInt64 = 1_000_000_000
    /// How long (ns) an operation with no dependency may stay not ready before it is reported:
    /// a condition of its own (a gate such as "online") is the pattern, not a problem, until
    /// it holds the operation about as long as `longExecution` would an executing one.
    public var conditionGrace: UInt64 = 10_000_000_000
    /// How long (ns) a ready operation may stay unstarted while its queue runs with a free slot
    /// before it is reported: Foundation starts a ready operation within a moment of a slot
    /// freeing, so one still waiting after this was never made ready in the queue's eyes.
    public var readyNotStartedGrace: UInt64 = 2_000_000_000
    /// Key changes kept per operation for the detail pane.
    public var historyLimit = 12
    /// Seconds of throughput history per queue.
    public var throughputWindowSeconds = 10

    /// The defaults.
    public init() {}

    /// The former name of `longExecution`, from when only asynchronous operations were warned about.
    @available(*, deprecated, renamed: "longExecution")
    public var longAsynchronousExecution: UInt64 {
        get { longExecution }
        set { longExecution = newValue }
    }

    /// For a one-shot report: every finished operation the source still holds is kept, however
    /// many and however old, so that the report tells what the monitor's history tells.
    public static var report: ModelConfiguration {
        var configuration = ModelConfiguration()
        configuration.maximumRetainedFinished = .max
        configuration.finishedRetention = .max
        return configuration
    }

    /// What the model's stream state keeps (`finishedRetention` `.max`: no age limit).
    public var retention: StreamRetention {
        StreamRetention(maximumFinished: maximumRetainedFinished, maximumAge: finishedRetention == .max ? nil : finishedRetention,
                        historyLimit: historyLimit)
    }
}
