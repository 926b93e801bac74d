/// How the metrics follow a source.
public struct MetricsConfiguration: Sendable, Equatable {
    /// How the metrics thread reads its subscription: what it may fall behind by before it loses
    /// events (counted in `opscope_telemetry_events_lost_total`), how long it waits, and its
    /// nice value (19 by default: it yields the CPU to the program's work).
    public var reading = FollowerConfiguration()
    /// How often the gauges are brought up to date while events come (seconds); a scrape brings
    /// them up to date at once.
    public var publishInterval = 1.0
    /// The bucket bounds of the wait and run histograms, in seconds.
    public var histogramBuckets: [Double] = [0.000_1, 0.000_5, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60]

    /// The defaults.
    public init() {}
}
