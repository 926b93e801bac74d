import ArgumentParser

/// The sizes of the throughput runs that compare modes (`bridge`, `agent`): trivial
/// operations first, then operations with busy work.
struct RunSizes: ParsableArguments {
    @Option(help: "Trivial operations per run.")
    var operations = 200_000

    @Option(help: "Operations per run with work.")
    var workOperations = 20_000
}
