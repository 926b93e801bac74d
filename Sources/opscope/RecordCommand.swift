import ArgumentParser
import DemoLauncher
import Foundation
import OpScope
import OpScopeDemos
#if canImport(Glibc)
import Glibc
#endif

/// `opscope record DEMO FILE --for SECONDS`: runs a demo without a terminal and records its
/// event stream.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Run a demo without a terminal and record its events to a file (opscope replay FILE plays it back).",
        discussion: """
            The file is written as the demo runs (JSON Lines, docs/EVENT-FORMAT.md): stopped early, even killed, it is \
            readable up to its last complete line. Ctrl-C ends the recording cleanly. Exit status 1 when writing failed \
            (the message says why; the demo still ran its time).
            """
    )

    @Argument(help: "The demo to run.")
    var demo: String

    @Argument(help: "The file to write (created, or replaced).")
    var file: String

    @Option(name: .customLong("for"), help: "Seconds to record (0.1-3600).")
    var seconds = 5.0

    @Option(help: "Demo speed (0.05-20).")
    var speed = 1.0

    @Option(help: "Seed of the demo's random choices: the same seed, the same demo.")
    var seed: UInt64 = 1

    func validate() throws {
        guard Demo.named(demo) != nil else {
            throw ValidationError("unknown demo '\(demo)'; known: \(Demo.all.map(\.name).joined(separator: ", "))")
        }
        guard seconds.isFinite, (0.1...3_600).contains(seconds) else { throw ValidationError("--for must be between 0.1 and 3600 seconds, got \(seconds)") }
        guard speed.isFinite, (0.05...20).contains(speed) else { throw ValidationError("--speed must be between 0.05 and 20, got \(speed)") }
    }

    func run() throws {
        let monitor = OperationMonitor()
        let recorder: Recorder
        do {
            var options = RecorderOptions()
            options.program = demo
            recorder = try OpScopeDashboard.record(monitor, to: URL(fileURLWithPath: file), options: options)
        } catch {
            throw ValidationError(error.description)
        }
        let handle = Demo.named(demo)!.start(monitor, Pace(speed: speed, seed: seed))
        let signal = Headless.runFor(seconds)
        handle.stop()
        recorder.stop()
        if let failure = recorder.failure {
            FileHandle.standardErrorWrite("opscope: \(failure)\n")
            throw ExitCode(1)
        }
        print("recorded \(recorder.eventsWritten) events of '\(demo)' to \(file) (\(recorder.bytesWritten / 1024) KB"
              + (recorder.droppedEvents > 0 ? ", \(recorder.droppedEvents) lost" : "") + "); opscope replay \(file) plays it back")
        if let signal { throw ExitCode(128 + signal) }
    }
}

/// Waiting without a terminal while a demo runs: the main run loop turns (so that
/// `OperationQueue.main` runs), and SIGINT, SIGTERM or SIGHUP ends the wait early.
enum Headless {
    /// Waits `seconds`, or until SIGINT, SIGTERM or SIGHUP; returns the signal if one came.
    static func runFor(_ seconds: Double) -> Int32? {
        let received = SignalFlag()
        var sources: [DispatchSourceSignal] = []
        // SIGHUP too: a recording whose terminal closes is finished (end line written), not cut.
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { received.set(number) }
            source.resume()
            sources.append(source)
        }
        defer {
            for source in sources { source.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
            signal(SIGHUP, SIG_DFL)
        }
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, received.value == nil {
            let step = min(0.1, max(0, deadline.timeIntervalSinceNow))
            let started = Date()
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: step))
            // Without run loop sources the call returns at once: sleep instead of spinning.
            let elapsed = Date().timeIntervalSince(started)
            if elapsed < step / 2 { Thread.sleep(forTimeInterval: step - elapsed) }
        }
        return received.value
    }

    /// The first signal received, set from the signal handler's queue.
    final class SignalFlag: @unchecked Sendable {
        // Safety: `signal` is guarded by `lock`.
        private let lock = NSLock()
        private var signal: Int32?

        func set(_ number: Int32) {
            lock.lock()
            if signal == nil { signal = number }
            lock.unlock()
        }

        var value: Int32? {
            lock.lock()
            defer { lock.unlock() }
            return signal
        }
    }
}
