/// Finishes per second over the last few seconds, in a fixed ring of one-second buckets.
public struct ThroughputMeter: Sendable, Equatable {
    private var buckets: [Int]
    private var newestSecond: UInt64 = 0

    /// A meter remembering `seconds` seconds.
    package init(seconds: Int) {
        buckets = Array(repeating: 0, count: max(1, seconds))
    }

    /// Counts one finish at `time` (ns).
    mutating func record(at time: UInt64) {
        let second = time / 1_000_000_000
        advance(to: second)
        if second + UInt64(buckets.count) > newestSecond {
            buckets[Int(second % UInt64(buckets.count))] += 1
        }
    }

    private mutating func advance(to second: UInt64) {
        guard second > newestSecond else { return }
        let gap = min(second - newestSecond, UInt64(buckets.count))
        for step in 1...gap {
            buckets[Int((newestSecond + step) % UInt64(buckets.count))] = 0
        }
        newestSecond = second
    }

    /// Finishes per second, averaged over the complete seconds of the window before `now`.
    public func perSecond(now: UInt64) -> Double {
        let current = now / 1_000_000_000
        let span = UInt64(buckets.count - 1)
        guard span > 0, current >= 1 else { return 0 }
        var total = 0
        var seconds = 0
        for second in (current > span ? current - span : 0)..<current where second + UInt64(buckets.count) > newestSecond {
            if second <= newestSecond { total += buckets[Int(second % UInt64(buckets.count))] }
            seconds += 1
        }
        return seconds == 0 ? 0 : Double(total) / Double(seconds)
    }
}
