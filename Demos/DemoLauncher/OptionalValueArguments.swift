/// Options whose value may be left out (`--otlp` alone: the default collector). ArgumentParser
/// has no such option (and takes `--otlp=` as a missing value), so a bare one is given the value
/// `omitted` (`--otlp=default`) before parsing; a word
/// after it is its value only if it is a URL (`--otlp http://host:4318`), so that
/// `--otlp pipeline` still names the demo.
public enum OptionalValueArguments {
    /// The options of `opscope` and the demos whose value may be left out.
    public static let options: Set<String> = ["--otlp"]

    /// The value a bare option gets: "use the default".
    public static let omitted = "default"

    /// `arguments` with every bare option of `options` given the value `omitted`. Nothing after
    /// `--` is touched.
    public static func filled(_ arguments: [String], options: Set<String> = options) -> [String] {
        ArgumentRewrite.apply(arguments) { argument, next in
            guard options.contains(argument) else { return nil }
            if let next, next.contains("://") { return .init(word: argument + "=" + next, consumesNext: true) }
            return .init(word: argument + "=" + omitted, consumesNext: false)
        }
    }
}
