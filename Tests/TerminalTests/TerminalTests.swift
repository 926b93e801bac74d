import Foundation
import OpScopeTestSupport
import Testing

/// The real program in a real terminal (tmux): what a person sees and what the terminal is left
/// in. Needs tmux (`.ci/run` installs it).
@Suite("Terminal: opscope in tmux", .serialized, .timeLimit(.minutes(3)))
struct TerminalTests {
    init() {
        #expect(Tmux.run(["tmux", "-V"]).ok, "tmux is needed for these tests (apt-get install tmux)")
        #expect(FileManager.default.isExecutableFile(atPath: Tmux.opscope), "opscope not built at \(Tmux.opscope)")
    }

    /// The terminal settings after the program: line editing and echo back on.
    private func expectSaneTerminal(_ screen: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let words = Set(screen.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        #expect(words.contains("icanon") && words.contains("echo") && words.contains("icrnl"),
                "terminal left raw:\n\(screen)", sourceLocation: sourceLocation)
        #expect(!words.contains("-icanon") && !words.contains("-echo"), sourceLocation: sourceLocation)
    }

    @Test("suspend, cancel, add work, resize to 30x8 and back, quit: the screen follows, the terminal is restored")
    func session() {
        let tmux = Tmux("\(Tmux.opscope) demo stuck")
        tmux.wait(for: "the dashboard") { $0.contains("OpScope") && $0.contains("q2 paused") && $0.contains("SUSPENDED") }
        // Suspend the selected queue (q1 work): the header says so.
        tmux.send("s")
        tmux.wait(for: "q1 suspended") { $0.split(separator: "\n").contains { $0.contains("q1 work") && $0.contains("SUSPENDED") } }
        // Cancel #2 render-feed (second row) after the confirmation.
        tmux.send("j")
        tmux.wait(for: "selection on #2") { $0.contains("Graph around #2") }
        tmux.send("c")
        tmux.wait(for: "the confirmation") { $0.contains("Cancel #2 render-feed? (y/n)") }
        tmux.send("y")
        tmux.wait(for: "#2 cancelled") { screen in
            screen.split(separator: "\n").contains { $0.contains("render-feed") && $0.contains("✗ ") }
        }
        // Add work from the picker: a new operation appears.
        tmux.send("a")
        tmux.wait(for: "the picker") { $0.contains("Add work") }
        tmux.send("Enter")
        tmux.wait(for: "the added operation") { $0.contains("hang-") && $0.contains("added hang") }
        // Too small, then back.
        tmux.resize(width: 30, height: 8)
        tmux.wait(for: "the too-small message") { $0.contains("Terminal too small: 30x8") }
        tmux.resize(width: 120, height: 40)
        tmux.wait(for: "the dashboard again") { $0.contains("q1 work") && $0.contains("Operations") }
        tmux.send("q")
        let after = tmux.wait(for: "the exit") { $0.contains("EXIT=") && $0.contains("speed") }
        #expect(after.contains("EXIT=0"))
        expectSaneTerminal(after)
    }

    @Test("SIGINT, SIGTERM and SIGHUP: the terminal is restored and the exit status says which", arguments: [
        ("INT", 130), ("TERM", 143), ("HUP", 129),
    ])
    func signals(signal: String, status: Int) {
        let tmux = Tmux("\(Tmux.opscope) demo pipeline")
        tmux.wait(for: "the dashboard") { $0.contains("OpScope") && $0.contains("q3 ui") }
        guard let pid = tmux.programPID() else {
            Issue.record("no program pid")
            return
        }
        Tmux.run(["kill", "-\(signal)", "\(pid)"])
        let after = tmux.wait(for: "the exit") { $0.contains("EXIT=") && $0.contains("speed") }
        #expect(after.contains("EXIT=\(status)"), "\(after)")
        #expect(!after.contains("Operations"), "the dashboard is gone from the screen")
        expectSaneTerminal(after)
    }

    @Test("a resize storm: 100 resizes from 1x1 to 200x60 in about a second, then the dashboard is whole")
    func resizeStorm() {
        let tmux = Tmux("\(Tmux.opscope) demo pipeline")
        tmux.wait(for: "the dashboard") { $0.contains("q3 ui") }
        let seed = SeededRandom.seed(default: 17, environment: ProcessInfo.processInfo.environment)
        var random = SeededRandom(seed: seed)
        let started = Date()
        for _ in 0..<100 {
            tmux.resize(width: Int.random(in: 1...200, using: &random), height: Int.random(in: 1...60, using: &random))
        }
        let seconds = Date().timeIntervalSince(started)
        tmux.resize(width: 120, height: 40)
        tmux.wait(for: "the dashboard after the storm") { $0.contains("q3 ui") && $0.contains("F10Quit") }
        tmux.send("q")
        let after = tmux.wait(for: "the exit") { $0.contains("EXIT=") && $0.contains("speed") }
        #expect(after.contains("EXIT=0"), "after \(seconds) s of resizing (seed \(seed))")
        expectSaneTerminal(after)
    }

    @Test("2,000 random bytes, escape sequences and mouse reports into the real program: it keeps working")
    func randomInput() {
        let tmux = Tmux("\(Tmux.opscope) demo stuck")
        tmux.wait(for: "the dashboard") { $0.contains("q2 paused") }
        let seed = SeededRandom.seed(default: 2_000, environment: ProcessInfo.processInfo.environment)
        var random = SeededRandom(seed: seed)
        print("randomInput: seed \(seed) (OPSCOPE_SEED=\(seed) replays it)")
        // Bytes that would end the program on purpose are left out: q and Q (quit), Ctrl-C,
        // Ctrl-Z and Ctrl-\ (signals), and ESC [ 2 1 ~ (F10).
        let excluded: Set<UInt8> = [0x71, 0x51, 0x03, 0x1A, 0x1C]
        let sequences: [[UInt8]] = [
            [0x1B, 0x5B, 0x41], [0x1B, 0x5B, 0x42], [0x1B, 0x5B, 0x35, 0x7E], [0x1B, 0x4F, 0x50], [0x1B, 0x5B, 0x5A],
            [0x1B, 0x5B, 0x3C, 0x30, 0x3B, 0x31, 0x30, 0x3B, 0x31, 0x32, 0x4D],   // SGR mouse press at 10,12
            [0x1B, 0x5B, 0x3C, 0x36, 0x35, 0x3B, 0x35, 0x3B, 0x35, 0x4D],         // wheel down
            [0x1B, 0x5B, 0x4D, 0x20, 0x2A, 0x2A], [0xC3, 0x28], [0xFF, 0xFE], [0xE2, 0x82],
        ]
        var sent = 0
        while sent < 2_000 {
            var chunk: [UInt8] = []
            for _ in 0..<20 {
                if Int.random(in: 0..<5, using: &random) == 0 {
                    chunk += sequences.randomElement(using: &random)!
                } else {
                    var byte = UInt8.random(in: 0...255, using: &random)
                    while excluded.contains(byte) { byte = UInt8.random(in: 0...255, using: &random) }
                    chunk.append(byte)
                }
            }
            sent += chunk.count
            Tmux.run(["tmux", "send-keys", "-t", tmux.name, "-H"] + chunk.map { String(format: "%02x", $0) })
        }
        // Close whatever prompt the noise opened, then quit.
        tmux.send("Escape")
        Thread.sleep(forTimeInterval: 0.1)
        tmux.send("Escape")
        Thread.sleep(forTimeInterval: 0.1)
        tmux.wait(for: "the dashboard after the noise") { $0.contains("OpScope") && $0.contains("F10Quit") }
        tmux.send("q")
        let after = tmux.wait(for: "the exit") { $0.contains("EXIT=") && $0.contains("speed") }
        #expect(after.contains("EXIT=0"))
        expectSaneTerminal(after)
    }

    @Test("a trap while the dashboard draws: the terminal is given back before the crash report")
    func trap() {
        // Swift's backtracer is off here only to keep the test short (a debug build's backtrace
        // takes 10-20 s); with it on, the guard runs first and then hands over (exit 132 by hand).
        let tmux = Tmux("SWIFT_BACKTRACE=enable=no OPSCOPE_TEST_TRAP=1 \(Tmux.opscope) demo pipeline 2>/dev/null")
        let after = tmux.wait(seconds: 40, for: "the exit") { $0.contains("EXIT=") && $0.contains("speed") }
        #expect(!after.contains("EXIT=0"), "the trap should end the program")
        #expect(!after.contains("F10Quit"), "the dashboard is gone from the screen")
        expectSaneTerminal(after)
    }

    @Test("no terminal, TERM=dumb, unknown demo, bad option: one line and exit status 2")
    func refusals() {
        let piped = Tmux.run(["sh", "-c", "\(Tmux.opscope) demo pipeline > /dev/null 2>/tmp/opscope-err.txt; echo $?"]).output
        #expect(piped.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
        let message = (try? String(contentsOfFile: "/tmp/opscope-err.txt", encoding: .utf8)) ?? ""
        #expect(message.hasPrefix("opscope: standard output is not a terminal") && message.split(separator: "\n").count == 1)
        let tmux = Tmux("TERM=dumb \(Tmux.opscope) demo 2>&1; echo DUMB=$?; env -u TERM \(Tmux.opscope) demo 2>&1; echo UNSET=$?; \(Tmux.opscope) demo nope 2>&1; echo NOPE=$?; \(Tmux.opscope) --fps 0 2>&1")
        let screen = tmux.wait(for: "the refusals") { $0.contains("EXIT=") }
        #expect(screen.contains("opscope: TERM is 'dumb'") && screen.contains("DUMB=2"))
        #expect(screen.contains("opscope: TERM is not set") && screen.contains("UNSET=2"))
        #expect(screen.contains("opscope: unknown demo 'nope'") && screen.contains("NOPE=2"))
        #expect(screen.contains("opscope: --fps must be between 1 and 120, got 0") && screen.contains("EXIT=2"))
        for (arguments, message) in [("report stuck --after -1", "--after must be between 0 and 3600 seconds, got -1.0"),
                                     ("report stuck --after soon", "The value 'soon' is invalid for '--after <after>'"),
                                     ("report nope", "unknown demo 'nope'"), ("demo --speed 0", "--speed must be between 0.05 and 20, got 0.0")] {
            let output = Tmux.run(["sh", "-c", "\(Tmux.opscope) \(arguments) 2>&1; echo STATUS=$?"]).output
            #expect(output.hasPrefix("opscope: ") && output.contains(message) && output.contains("STATUS=2"), "\(arguments): \(output)")
            #expect(output.split(separator: "\n").count == 2, "one line: \(output)")
        }
    }
}

/// The programs a newcomer runs first: every demo, the demos' own executables, the embedding
/// example from docs/embedding.md.
@Suite("Terminal: demos and the embedding example", .serialized, .timeLimit(.minutes(3)))
struct DemoProgramTests {
    private func binary(_ name: String) -> String {
        URL(fileURLWithPath: Tmux.opscope).deletingLastPathComponent().appendingPathComponent(name).path
    }

    @Test("every demo runs headless and reports; stuck and readiness report their problems with exit status 1", arguments: [
        ("tour", 0), ("pipeline", 0), ("serial-async", 0), ("async-right-wrong", 0), ("stuck", 1), ("readiness", 1), ("priorities", 0),
        ("cancellation", 0),
    ])
    func reports(demo: String, status: Int) throws {
        // readiness: its untold gate opens at 1 s and is flagged 2 s later; 6 s leaves room for a busy machine.
        let after = demo == "readiness" ? 6 : 1.5
        let result = Tmux.run(["sh", "-c", "\(Tmux.opscope) report \(demo) --after \(after) --json > /tmp/opscope-report-\(demo).json; echo $?"])
        let exit = Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        let json = try Data(contentsOf: URL(fileURLWithPath: "/tmp/opscope-report-\(demo).json"))
        let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        let queues = object?["queues"] as? [[String: Any]] ?? []
        let operations = object?["operations"] as? [[String: Any]] ?? []
        #expect(!queues.isEmpty && !operations.isEmpty, "\(demo): empty report")
        let diagnoses = object?["diagnoses"] as? [[String: Any]] ?? []
        if demo == "tour" || demo == "stuck" {
            // The stuck demo's lessons, and the tour's stuck dependency, are diagnosed by name.
            let messages = diagnoses.compactMap { $0["message"] as? String }
            #expect(messages.contains { $0.contains("sync-account executing") && $0.contains("asynchronous") }, "\(messages)")
        }
        if demo == "stuck" {
            let kinds = Set(diagnoses.compactMap { $0["kind"] as? String })
            #expect(kinds.isSuperset(of: ["waitingOnDependencies", "cycle", "queueSuspended", "notInAnyQueue"]), "\(kinds)")
            // The KVO lesson: an operation of the program's own that never sends its isFinished notification.
            let warnings = (object?["warnings"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(warnings.contains("unsignalledFinish"), "\(warnings)")
        }
        if demo == "readiness" {
            // Both lessons by name: the gate opened without telling the queue, and the dependency
            // removed while it ran.
            let named = Dictionary(diagnoses.compactMap { diagnosis -> (String, String)? in
                guard let message = diagnosis["message"] as? String, let kind = diagnosis["kind"] as? String else { return nil }
                return (message.split(separator: " ").dropFirst().first.map(String.init) ?? "", kind)
            }, uniquingKeysWith: { first, _ in first })
            #expect(named["refresh-token"] == "readyNotStarted" && named["apply-update"] == "notReadyWithoutDependencies", "\(named)")
            // The dependency's removal is named, not only the two usual causes.
            let apply = diagnoses.compactMap { $0["message"] as? String }.first { $0.contains(" apply-update ") } ?? ""
            #expect(apply.contains("download-update was removed from its dependencies"), "\(apply)")
        }
        #expect(exit == status, "\(demo) exited \(exit.map(String.init) ?? "?")")
    }

    @Test("a demo's own executable opens the dashboard and quits on q")
    func demoExecutable() {
        let tmux = Tmux(binary("priorities"))
        tmux.wait(for: "the priorities demo") { $0.contains("priorities: 2 slots") && $0.contains("q1 jobs") }
        tmux.send("q")
        let after = tmux.wait(for: "the exit") { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"))
    }

    @Test("the embedding example of docs/embedding.md: JSON without a terminal, the dashboard with one")
    func embedding() throws {
        let output = Tmux.run(["sh", "-c", "\(binary("embedding-example")) | cat"]).output
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let queues = object?["queues"] as? [[String: Any]] ?? []
        #expect(queues.first?["name"] as? String == "images")
        let tmux = Tmux(binary("embedding-example"))
        tmux.wait(for: "the embedded dashboard") { $0.contains("q1 images") && $0.contains("run 2/2") }
        tmux.send("a")
        tmux.wait(for: "the picker with resize") { $0.contains("resize one image") }
        tmux.send("Enter")
        tmux.wait(for: "added") { $0.contains("added resize") }
        tmux.send("q")
        #expect(tmux.wait(for: "the exit") { $0.contains("EXIT=") }.contains("EXIT=0"))
    }
}
