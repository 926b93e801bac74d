import ArgumentParser
import Foundation
import OpScope
import OpScopeDemos
import OpScopeOTLP
import OpScopeTelemetry

extension DemoLauncher {
    /// `--serve`: runs the demo without a dashboard and serves it to consoles in other terminals
    /// until SIGINT, SIGTERM or SIGHUP; the socket is removed on the way out.
    static func serve(_ demo: Demo, _ display: DisplayOptions) throws -> Never {
        let monitor = OperationMonitor()
        var configuration = AgentConfiguration()
        configuration.program = demo.name
        configuration.socketPath = display.socket
        // The demo's pane says what consoles do to it.
        configuration.onCommand = { _, result in
            let line: String
            switch result {
            case .success(let receipt): line = "a console: \(receipt.message)"
            case .failure(let error): line = "a console's command was refused: \(error.message)"
            }
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        let agent: AgentServer
        do {
            agent = try OpScopeAgent.start(monitor, configuration: configuration)
        } catch let error as AttachError {
            throw ValidationError(error.message)
        }
        let metrics: MetricsServer?
        do {
            metrics = try display.metrics.map { address throws(MetricsEndpointError) in try MetricsServer(source: monitor, address: address) }
        } catch {
            agent.stop()
            throw ValidationError(error.message)
        }
        let otlp: OTLPExporter?
        do {
            otlp = try DemoTelemetry.startOTLP(monitor, display, program: demo.name)
        } catch {
            metrics?.stop()
            agent.stop()
            throw error
        }
        let handle = demo.start(monitor, Pace(speed: display.speed, seed: display.seed))
        let target = display.socket ?? String(getpid())
        let metricsLine = (metrics.map { "metrics for Prometheus at \($0.endpoint.url)\n" } ?? "")
            + (otlp.map { "traces and metrics over OTLP to \($0.tracesEndpoint)\n" } ?? "")
        // Written at once (not buffered), so that a script or a test sees where to attach.
        FileHandle.standardOutput.write(Data("""
            serving the '\(demo.name)' demo (pid \(getpid())) at \(agent.socketPath)
            attach from another terminal: opscope attach \(target)
            \(metricsLine)Ctrl-C stops

            """.utf8))
        // The signals are taken from a dispatch source (not a handler), so stopping runs as
        // ordinary code: the agent tells its consoles and removes the socket.
        // SIGHUP too: closing the terminal the demo serves from must not leave its socket behind.
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                metrics?.stop()
                agent.stop()
                handle.stop()
                // After the demo stopped: what never finished goes as unfinished spans.
                otlp.map { DemoTelemetry.finish($0, quietly: true) }
                // The terminal may be gone (SIGHUP): a failed write must not stop the exit.
                try? FileHandle.standardOutput.write(contentsOf: Data("stopped; \(agent.socketPath) removed\n".utf8))
                exit(0)
            }
            source.resume()
            SignalSources.keep(source)
        }
        // The main thread serves the main queue (the tour puts work on it).
        dispatchMain()
    }
}

/// Keeps the signal sources alive for the life of the process.
private enum SignalSources {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    private static let lock = NSLock()

    static func keep(_ source: DispatchSourceSignal) {
        lock.lock()
        sources.append(source)
        lock.unlock()
    }
}
