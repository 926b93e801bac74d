import ArgumentParser
import ReliabilityRuns

/// The result of a reliability run: its figures, and what did not hold.
protocol CheckedRun: CustomStringConvertible {
    /// What did not hold (empty when every check held).
    var problems: [String] { get }
}

extension RunResult: CheckedRun {}
extension LongRunResult: CheckedRun {}

/// Prints a run's figures; the command fails (exit status 1) when a check did not hold.
func printChecked(_ result: some CheckedRun) throws {
    print(result)
    if !result.problems.isEmpty { throw ExitCode(1) }
}
