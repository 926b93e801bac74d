import DashboardModel
import Foundation
import OpScopeTestSupport
import OperationEvents

/// Names a program may give its operations and queues that break naive exporters: quotes,
/// brackets, backslashes, line breaks, control characters, entity look-alikes, markup, keywords.
let hostileNames: [String] = [
    "he said \"hi\"",
    "[x]{y}(z)",
    "back\\slash \\\" end\\",
    "two\nlines",
    "tab\there\rreturn",
    "#35; not an entity #quot;",
    "<b>bold</b> & <br> &amp;",
    "`code` `",
    "end",
    "%% not a comment",
    "a --> b |pipe| ;semi",
    "naïve ✓ 名前",
    "bell\u{7}null\u{0}",
    "\\n literal",
]

/// The name as the exporters must make it readable: control characters other than a line break
/// become spaces (nothing else changes).
func readable(_ name: String) -> String {
    String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
        scalar != "\n" && scalar.properties.generalCategory == .control ? " " : scalar
    }))
}

/// One operation per hostile name on a queue with a hostile name, each after the one before.
func hostileModel() -> DashboardModel {
    var script = EventScript()
    script.queue(1, "queue \"one\" [x] #1 <q>\nsecond line")
    for (index, name) in hostileNames.enumerated() {
        script.add(index + 1, queue: 1, name, after: index == 0 ? [] : [index])
    }
    return script.model()
}

/// The stuck demo's model after four seconds.
func stuckModel(seconds: Int = 4) -> DashboardModel {
    let script = stuckScript(seconds: seconds)
    var model = script.model()
    model.advance(to: script.time)
    return model
}

/// Where graphviz's `dot` is, if installed.
let dotPath: String? = {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return paths.map { "\($0)/dot" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// Runs `dot` with `arguments` on `input`; its standard output, error output and status.
func runDot(_ arguments: [String], input: String) throws -> (output: String, errors: String, status: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: dotPath!)
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    // Read both outputs on their own threads so that a full pipe cannot block dot.
    nonisolated(unsafe) var output = Data()
    nonisolated(unsafe) var errors = Data()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { output = stdout.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { errors = stderr.fileHandleForReading.readDataToEndOfFile() }
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    process.waitUntilExit()
    group.wait()
    return (String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self), process.terminationStatus)
}
