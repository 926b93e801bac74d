/// A small, fast, seedable random number generator (SplitMix64) for tests that must replay:
/// every randomised test takes a seed, prints it when it fails, and can be rerun with it.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    /// The seed this generator started from.
    public let seed: UInt64
    private var state: UInt64

    /// A generator starting at `seed`.
    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A seed from the environment variable `OPSCOPE_SEED` when set (to replay a failure), else
    /// `fallback`.
    public static func seed(default fallback: UInt64, environment: [String: String]) -> UInt64 {
        environment["OPSCOPE_SEED"].flatMap { UInt64($0) } ?? fallback
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
