import ArgumentParser

/// The command line before ArgumentParser reads it.
enum CommandLineArguments {
    /// The options whose value is a number that may be written negative (to be refused with the
    /// option's own range message), in every subcommand: `--at`, `--after`, `--for`, `--speed`,
    /// `--seed`, `--fps`.
    static let numericOptions: Set<String> = ["--at", "--after", "--for", "--speed", "--seed", "--fps"]

    /// `--at -1` as `--at=-1`: ArgumentParser reads a word that starts with `-` as an option, so
    /// a negative number after an option was "Missing value"; joined, it is the option's value
    /// and its range check explains it. Nothing after `--` is touched.
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                result += arguments[index...]
                break
            }
            if numericOptions.contains(argument), index + 1 < arguments.count, isNegativeNumber(arguments[index + 1]) {
                result.append(argument + "=" + arguments[index + 1])
                index += 2
            } else {
                result.append(argument)
                index += 1
            }
        }
        return result
    }

    /// True for `-1`, `-0.5`, `-1e3`, `-inf`, `-nan`: a minus sign, then what a `Double` reads.
    static func isNegativeNumber(_ word: String) -> Bool {
        guard word.hasPrefix("-") else { return false }
        let rest = word.dropFirst()
        guard let first = rest.first, first != "-", first != "+" else { return false }
        return Double(rest) != nil
    }
}
