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
        ArgumentRewrite.apply(arguments) { argument, next in
            guard options.contains(argument), let next, isNegativeNumber(next) else { return nil }
            return .init(word: argument + "=" + next, consumesNext: true)
        }
    }

    /// True for `-1`, `-0.5`, `-1e3`, `-inf`, `-nan`: a minus sign, then what a `Double` reads.
    public static func isNegativeNumber(_ word: String) -> Bool {
        guard word.hasPrefix("-") else { return false }
        let rest = word.dropFirst()
        guard let first = rest.first, first != "-", first != "+" else { return false }
        return Double(rest) != nil
    }
}
