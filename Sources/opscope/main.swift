import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Errors are one line and exit status 2 (ArgumentParser's own default would be 64 and a usage
// block); --help still prints the full help and exits 0.
let arguments = CommandLineArguments.joiningNegativeValues(Array(CommandLine.arguments.dropFirst()))
do {
    var command = try OpScopeCommand.parseAsRoot(arguments)
    try command.run()
} catch let exit as ExitCode {
    Glibc.exit(exit.rawValue)
} catch {
    let status = OpScopeCommand.exitCode(for: error)
    if status == .success {
        print(OpScopeCommand.fullMessage(for: error))
        Glibc.exit(0)
    }
    let message = OpScopeCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
    FileHandle.standardErrorWrite("opscope: \(message)\n")
    Glibc.exit(2)
}
