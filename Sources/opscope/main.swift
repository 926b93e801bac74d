import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Errors are one line and exit status 2 (ArgumentParser's own default would be 64 and a usage
// block); an error in the command line ends with where its help is. --help still prints the
// full help and exits 0.
func fail(_ message: String) -> Never {
    FileHandle.standardErrorWrite("opscope: \(message)\n")
    Glibc.exit(2)
}

let arguments = CommandLineArguments.joiningNegativeValues(Array(CommandLine.arguments.dropFirst()))
if let unknown = CommandLineArguments.unknownHelpTopic(arguments) { fail(unknown) }
/// --help, --version and `opscope help`: the full text, exit status 0.
func exitIfClean(_ error: any Error) {
    guard OpScopeCommand.exitCode(for: error) == .success else { return }
    print(OpScopeCommand.fullMessage(for: error))
    Glibc.exit(0)
}

var command: any ParsableCommand
do {
    command = try OpScopeCommand.parseAsRoot(arguments)
} catch {
    exitIfClean(error)
    fail(CommandLineArguments.message(for: error, arguments: arguments))
}
do {
    try command.run()
} catch let exit as ExitCode {
    Glibc.exit(exit.rawValue)
} catch {
    exitIfClean(error)
    // What went wrong running (a file, a terminal, a socket): the message says what to do.
    fail(OpScopeCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)")
}
