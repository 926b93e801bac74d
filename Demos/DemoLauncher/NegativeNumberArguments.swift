/// A negative number after a numeric option, joined to it (`--seed -1` as `--seed=-1`):
/// ArgumentParser reads a word that starts with `-` as an option, so the user was told "Missing
/// value" instead of the option's own range message. Shared by `opscope` and each demo's own
/// executable.
public enum NegativeNumberArguments {
    /// The options of the demo executables whose value is a number.
    public static let demoOptions: Set<String> = ["--speed", "--seed", "--fps"]

    /// `arguments` with every negative number that follows one of `options` joined to it with
    /// `=`. Nothing after `--` is touched.
    public static func joined(_ arguments: [String], options: Set<String>) -> [String] {
        var result: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                result += arguments[index...]
                break
            }
            if options.contains(argument), index + 1 < arguments.count, isNegativeNumber(arguments[index + 1]) {
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
    public static func isNegativeNumber(_ word: String) -> Bool {
        guard word.hasPrefix("-") else { return false }
        let rest = word.dropFirst()
        guard let first = rest.first, first != "-", first != "+" else { return false }
        return Double(rest) != nil
    }
}
