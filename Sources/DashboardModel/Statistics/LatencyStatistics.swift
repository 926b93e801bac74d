import Histogram

/// Wait times (added → started) and run times (started → finished) of one queue or QoS class,
/// in bounded memory: HDR histograms in microseconds, two significant digits.
public struct LatencyStatistics: Sendable {
    private var waits = Histogram<UInt32>(numberOfSignificantValueDigits: .two)
    private var runs = Histogram<UInt32>(numberOfSignificantValueDigits: .two)

    /// Empty statistics.
    package init() {}

    mutating func recordWait(nanoseconds: UInt64) {
        _ = waits.record(nanoseconds / 1_000)
    }

    mutating func recordRun(nanoseconds: UInt64) {
        _ = runs.record(nanoseconds / 1_000)
    }

    /// Percentiles of the wait times recorded so far.
    public var wait: Percentiles { Percentiles(waits) }

    /// Percentiles of the run times recorded so far.
    public var run: Percentiles { Percentiles(runs) }

    /// p50, p90 and p99 of one distribution, in nanoseconds (microsecond resolution).
    public struct Percentiles: Sendable, Equatable, Codable {
        /// How many values were recorded.
        public var count: UInt64
        /// Median.
        public var p50: UInt64
        /// 90th percentile.
        public var p90: UInt64
        /// 99th percentile.
        public var p99: UInt64

        init(_ histogram: Histogram<UInt32>) {
            count = histogram.totalCount
            p50 = count == 0 ? 0 : histogram.valueAtPercentile(50) * 1_000
            p90 = count == 0 ? 0 : histogram.valueAtPercentile(90) * 1_000
            p99 = count == 0 ? 0 : histogram.valueAtPercentile(99) * 1_000
        }

        /// Creates percentiles from values (tests).
        package init(count: UInt64, p50: UInt64, p90: UInt64, p99: UInt64) {
            self.count = count
            self.p50 = p50
            self.p90 = p90
            self.p99 = p99
        }
    }
}
