import Foundation
import Testing

/// Reports and their errors as a new user meets them (tried as a new user would): damage in a
/// recording is named, the exit status is the command's, and a file, a directory or a negative
/// number where something else was meant is named for what it is.
extension CommandLineTests {
    @Test("a damaged recording's report names the damage on standard error, by line")
    func damagedRecording() throws {
        let file = recording()
        let gap = directory + "/gap.jsonl"
        let (index, lines) = try RecordingDamage.removeMiddleEvent(of: file, writingTo: gap)
        let report = opscope(["report", gap, "--json"])
        #expect(report.output.contains("opscope: \(gap):\(index + 1): notice: sequence number "), "\(report.output.prefix(400))")
        #expect(report.output.contains("\"droppedEvents\" : 1"), "\(report.output.prefix(400))")

        // Cut at a line boundary, without the end line.
        let cut = directory + "/cut.jsonl"
        try (lines.prefix(index).joined(separator: "\n") + "\n").write(toFile: cut, atomically: true, encoding: .utf8)
        let cutReport = opscope(["report", cut])
        #expect(cutReport.output.contains("opscope: \(cut):\(index): notice: the recording stops after this line without its end line"),
                "\(cutReport.output.prefix(400))")
    }

    @Test("the exit status is named by the command only")
    func exitStatusWording() throws {
        // Two operations that wait on each other: a cycle, whatever the timing.
        func added(_ sequence: Int, _ id: Int, waitsOn other: Int) -> String {
            #"{"kind":"event","sequence":\#(sequence),"time":\#(10 + sequence),"origin":"exact","change":"operationAdded","operation":\#(id),"#
                + #""queue":1,"name":"op\#(id)","typeName":"B","priority":"normal","effectivePriority":"normal","qualityOfService":"default","#
                + #""isAsynchronous":false,"isBarrier":false,"dependencies":[\#(other)],"observation":"hooked","isReady":false,"#
                + #""isExecuting":false,"isCancelled":false}"#
        }
        let lines = [
            #"{"kind":"header","format":"opscope-events","version":1,"program":"cycle","processID":1,"startedAt":"2026-01-01T00:00:00.000000000Z","startMonitorTime":1}"#,
            #"{"kind":"event","sequence":0,"time":5,"origin":"exact","change":"queueAppeared","queue":1,"name":"work","maxConcurrentOperationCount":1,"#
                + #""isSuspended":false,"qualityOfService":"default","isMainQueue":false,"observation":"observed"}"#,
            added(1, 1, waitsOn: 2), added(2, 2, waitsOn: 1),
            #"{"kind":"end","time":100}"#,
        ]
        let file = directory + "/cycle.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let result = opscope(["report", file])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.hasSuffix("\nResult: problems found (exit status 1)"), "\(result.output)")
        #expect(result.output.contains("  #1 op1 -> #2 op2 -> #1 op1\n"), "\(result.output)")

        // report is the check, in every format; export converts, and says so in its help.
        #expect(opscope(["report", file, "--json"]).status == 1)
        for format in ["dot", "mermaid", "json", "perfetto"] {
            let exported = opscope(["export", file, "--format", format])
            #expect(exported.status == 0, "export --format \(format) of a run with a cycle: \(exported.output.prefix(300))")
        }
        let help = opscope(["export", "--help"]).output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("Exit status 0 when the export is written, whatever the recording holds: opscope report FILE is the check"),
                "\(help.prefix(1200))")
    }

    @Test("a file where a socket or an output was meant, a negative process id, a bad choice: named for what they are")
    func namedForWhatTheyAre() {
        let file = recording()
        expectRefusal(opscope(["report", "--attach", file]),
                      "opscope: \(file) is a file, not an agent's socket; it looks like a recording: opscope report \(file) reports on it",
                      "report --attach FILE")
        expectRefusal(opscope(["report", "--attach", directory]), "opscope: \(directory) is a directory, not an agent's socket",
                      "report --attach DIRECTORY")
        expectRefusal(opscope("report --attach -5"), "opscope: -5 is not a process id: process ids are positive", "--attach -5")
        expectRefusal(opscope(["export", file, "--format", "dot", "-o", directory]), "opscope: \(directory): cannot create it: Is a directory",
                      "export -o DIRECTORY")
        expectRefusal(opscope(["export", file, "--format", "dot", "-o", "/proc/nope/x.dot"]),
                      "opscope: /proc/nope/x.dot: cannot create it: No such file or directory", "export -o /proc/nope/x.dot")
        let svg = opscope(["export", file, "--format", "svg"])
        expectRefusal(svg, "or 'mermaid'; see 'opscope export --help'", "--format svg")
        #expect(!svg.output.contains(".;"), "\(svg.output)")
    }

    @Test("a demo's name that is also a file here: the demo runs, and standard error says how to name the file")
    func demoNameAndFile() throws {
        try FileManager.default.copyItem(atPath: recording(), toPath: directory + "/stuck")
        let result = opscope("report stuck --after 0.1")
        #expect(result.output.hasPrefix("opscope: running the demo 'stuck'; for the file of that name: opscope report ./stuck\n"),
                "\(result.output.prefix(300))")
        #expect(result.output.contains("Queues"), "\(result.output.prefix(300))")
    }

    @Test("a report's option given to the dashboard (demo readiness --after 6) names the report command that takes it")
    func reportOptionOnTheDashboard() {
        let cases: [(String, String)] = [
            ("demo readiness --after 6", "opscope report readiness --after 6"),
            ("readiness --json", "opscope report readiness --json"),
            ("demo --json", "opscope report tour --json"),
            // Without a demo's name the parser reads the value as one ("unknown demo '2'").
            ("demo --after 2", "opscope report tour --after 2"),
            ("--after 2", "opscope report tour --after 2"),
            // Before the demo's name, the report command names the demo first.
            ("demo --after 6 readiness", "opscope report readiness --after 6"),
            ("demo --format json readiness", "opscope report readiness --format json"),
        ]
        for (command, suggestion) in cases {
            let result = opscope(command)
            expectRefusal(result, "Unknown option", command)
            #expect(result.output.hasSuffix("a report without a terminal takes it: \(suggestion)"), "\(command): \(result.output)")
        }
        // --at is a recording's moment: a demo's report refuses it, so the suggestion says --after.
        for command in ["demo readiness --at 0.1", "demo --at=0.1 readiness"] {
            let at = opscope(command)
            expectRefusal(at, "Unknown option '--at'", command)
            let suggestion = command.contains("=") ? "opscope report readiness --after=0.1" : "opscope report readiness --after 0.1"
            #expect(at.output.hasSuffix("a demo's report takes the moment as --after: \(suggestion)"), "\(command): \(at.output)")
            let suggested = opscope(String(suggestion.dropFirst("opscope ".count)))
            #expect(suggested.output.contains("Queues") && suggested.status != 2, "\(suggestion): \(suggested.output.prefix(300))")
        }
        // The suggestion runs.
        let report = opscope("report readiness --after 0.1")
        #expect(report.output.contains("Queues") && report.status != 2, "\(report.output.prefix(300))")
        // Other unknown options point at the help as before (with ArgumentParser's near miss).
        expectRefusal(opscope("demo readiness --colour"), "Unknown option '--colour'. Did you mean '--color'?; see 'opscope demo --help'", "--colour")
    }
}
