import ArgumentParser

/// A benchmark made of named parts that `--only` can pick from.
protocol PartedBenchmark {
    /// The parts a run without `--only` measures.
    static var allParts: Set<String> { get }
    /// Parts `--only` takes beyond `allParts` (for profiling one piece of a part).
    static var extraParts: Set<String> { get }
    /// The help of `--only`, naming the parts.
    static var onlyHelp: String { get }
}

extension PartedBenchmark {
    static var extraParts: Set<String> { [] }
}

/// `--only`: the parts of `Benchmark` to run, comma-separated (all of them by default).
struct PartSelection<Benchmark: PartedBenchmark>: ParsableArguments {
    @Option(help: ArgumentHelp(Benchmark.onlyHelp))
    var only: String?

    /// The parts picked. Checked when the command runs rather than in `validate()`, so the
    /// error reads as it always has (the root's usage line under it).
    func parts() throws -> Set<String> {
        let accepted = Benchmark.allParts.union(Benchmark.extraParts)
        let parts = only.map { Set($0.split(separator: ",").map(String.init)) } ?? Benchmark.allParts
        guard parts.isSubset(of: accepted) else {
            throw ValidationError("--only takes: \(accepted.sorted().joined(separator: ", "))")
        }
        return parts
    }
}
