import ArgumentParser
import DemoLauncher
import OpScopeDemos

/// The command line before and around ArgumentParser: negative numbers as values, `help` with a
/// subcommand that does not exist, and the pointer to the help that ends an argument error.
enum CommandLineArguments {
    /// The options whose value is a number that may be written negative (to be refused with the
    /// option's own range message), in every subcommand: `--at`, `--after`, `--for`, `--speed`,
    /// `--seed`, `--fps`, and `--attach` (a process id, refused as not one).
    static let numericOptions: Set<String> = ["--at", "--after", "--for", "--speed", "--seed", "--fps", "--attach"]

    /// `--at -1` as `--at=-1`, so that the option's range check explains it (see
    /// `NegativeNumberArguments`), and a bare `--otlp` as `--otlp=default` (`OptionalValueArguments`).
    /// Nothing after `--` is touched.
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        OptionalValueArguments.filled(NegativeNumberArguments.joined(arguments, options: numericOptions))
    }

    /// For `opscope help TOPIC…` naming a subcommand that does not exist, the one-line error
    /// (ArgumentParser would print the top-level help and exit 0); nil otherwise.
    static func unknownHelpTopic(_ arguments: [String]) -> String? {
        guard arguments.first == "help" else { return nil }
        var subcommands = OpScopeCommand.configuration.subcommands
        var path = OpScopeCommand._commandName
        for topic in arguments.dropFirst() where !topic.hasPrefix("-") {
            // ArgumentParser's own `help` is a subcommand of the root that is not listed.
            if path == OpScopeCommand._commandName, topic == "help" { return nil }
            guard let next = subcommands.first(where: { $0._commandName == topic }) else {
                if subcommands.isEmpty { return "'\(path)' has no subcommands, so no help for '\(topic)'; see '\(path) --help'" }
                let names = subcommands.map { $0._commandName }.joined(separator: ", ")
                return "no subcommand '\(topic)'; the subcommands: \(names) (\(path) help SUBCOMMAND)"
            }
            subcommands = next.configuration.subcommands
            path += " " + topic
        }
        return nil
    }

    /// An argument error as the one line `opscope` prints: the first line of ArgumentParser's
    /// message, and where the help is (`opscope --help`, or the subcommand's) unless the message
    /// already names a command to run.
    static func message(for error: any Error, arguments: [String]) -> String {
        // A report's option on the dashboard is what to say, whatever the parser met first:
        // `opscope demo --after 2` reads the 2 as the demo's name ("unknown demo '2'").
        if let option = reportOnlyOption(in: arguments), let report = reportCommand(arguments: arguments) {
            // `--at` is a recording's moment; a demo's report says when as `--after`.
            let takes = option == "--at" ? "a demo's report takes the moment as --after" : "a report without a terminal takes it"
            return "Unknown option '\(option)' for the dashboard; \(takes): \(report)"
        }
        let message = ArgumentErrorLine.firstLine(OpScopeCommand.message(for: error))
        guard !message.contains("opscope ") else { return message }
        return ArgumentErrorLine.pointing(message, to: helpCommand(for: error, arguments: arguments))
    }

    /// The options only a report takes.
    private static let reportOnlyOptions = ["--after", "--json", "--format", "--at"]

    /// The first report-only option among `arguments` (`--after`, or `--after=2`'s name).
    static func reportOnlyOption(in arguments: [String]) -> String? {
        for argument in arguments where argument.hasPrefix("--") {
            let name = String(argument.prefix { $0 != "=" })
            if reportOnlyOptions.contains(name) { return name }
        }
        return nil
    }

    /// For arguments of the dashboard that hold a report's option (`opscope demo readiness --after
    /// 6`, an easy slip: both run a demo), the report command with the same arguments; nil for
    /// another command's.
    static func reportCommand(arguments: [String]) -> String? {
        var rest = arguments
        if rest.first == "demo" {
            rest.removeFirst()
        } else if let first = rest.first, OpScopeCommand.configuration.subcommands.contains(where: { $0._commandName == first }) {
            return nil
        }
        // A report takes the demo's name first (`demo --after 3 readiness` is `report readiness --after 3`);
        // where none is named, the dashboard's default is implied.
        if rest.first?.hasPrefix("-") ?? true {
            let named = rest.indices.first { index in
                Demo.all.contains { $0.name == rest[index] } && !(index > 0 && reportOnlyOptions.contains(rest[index - 1]))
            }
            rest.insert(named.map { rest.remove(at: $0) } ?? Demo.standard.name, at: 0)
        }
        // The dashboard runs demos, and a demo's report refuses `--at` (a recording's option).
        rest = rest.map { $0 == "--at" ? "--after" : $0.hasPrefix("--at=") ? "--after=" + $0.dropFirst(5) : $0 }
        return (["opscope", "report"] + rest).joined(separator: " ")
    }

    /// The help for the command the error is about, as ArgumentParser's usage names it
    /// ("See 'opscope report --help' for more information."); `opscope --help` when no
    /// subcommand was named (the default one's options are listed there too).
    static func helpCommand(for error: any Error, arguments: [String]) -> String {
        let named = OpScopeCommand.configuration.subcommands.contains { $0._commandName == arguments.first }
        guard named else { return "opscope --help" }
        let full = OpScopeCommand.fullMessage(for: error)
        guard let start = full.range(of: "See '", options: .backwards),
              let end = full[start.upperBound...].range(of: "' for more information") else { return "opscope --help" }
        return String(full[start.upperBound..<end.lowerBound])
    }
}
