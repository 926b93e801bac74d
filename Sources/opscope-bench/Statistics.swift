import Foundation

/// Small helpers for reporting noisy measurements.
enum Statistics {
    /// The median (mean of the middle two for an even count).
    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// A value at quantile `q` (0...1), nearest rank.
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((q * Double(sorted.count - 1)).rounded())
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

/// A deterministic random generator, so a benchmark's interleaving can be reproduced.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Wall-clock and thread CPU time of one measured piece of work, in seconds. On a shared
/// machine the wall time includes the time the thread waited for a core; the CPU time does not,
/// so the two side by side say how much of a figure is the code and how much the machine.
struct Timing {
    var wall: Double
    var cpu: Double

    /// Times `body` on the calling thread.
    static func measure(_ body: () -> Void) -> Timing {
        let cpuStart = threadCPUTime()
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Timing(wall: wall, cpu: threadCPUTime() - cpuStart)
    }

    /// The calling thread's CPU time (user + system), in seconds.
    static func threadCPUTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

extension Array where Element == Timing {
    /// Median wall time.
    var wallMedian: Double { Statistics.median(map(\.wall)) }
    /// Median CPU time.
    var cpuMedian: Double { Statistics.median(map(\.cpu)) }
}
