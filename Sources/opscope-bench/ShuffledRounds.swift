import ArgumentParser

/// How often the throughput runs that compare modes repeat (`bridge`, `agent`): every round
/// runs each mode once, in an order shuffled from `seed`.
struct ShuffledRounds: ParsableArguments {
    @Option(help: "Rounds (each runs every mode once, shuffled); medians are reported.")
    var rounds = 9

    @Option(help: "Seed of the shuffling.")
    var seed: UInt64 = 1
}
