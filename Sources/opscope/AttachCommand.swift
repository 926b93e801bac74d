import ArgumentParser
import DemoLauncher
import Foundation
import OpScope

/// `opscope attach [PID|PATH] [--no-reconnect]`: the dashboard on a program running elsewhere.
struct AttachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Open the dashboard on a running program that serves an OpScope agent.",
        discussion: """
            Without an argument, lists the programs that can be attached to (process id, name, start time, queues) \
            and attaches if there is exactly one. A program serves an agent after OpScopeAgent.start(monitor); every \
            demo does with --serve. When the program exits, the dashboard says so, keeps its last state, and attaches \
            again when a program serves the same socket, or, for a program serving at its default socket (PID.sock), \
            when the same program is started again (--no-reconnect quits instead).
            """
    )

    @Argument(help: "The program's process id, or its agent's socket path.")
    var target: String?

    @Flag(name: .customLong("no-reconnect"), help: "Quit when the program exits instead of waiting for it to come back.")
    var noReconnect = false

    @Flag(name: .customLong("readonly"), help: "Watch without the power to change: cancel, suspend, concurrency and add are refused.")
    var readOnly = false

    @Flag(help: "Only list the programs that can be attached to.")
    var list = false

    @OptionGroup var terminal: TerminalOptions

    func validate() throws {
        if list, target != nil { throw ValidationError("--list takes no program") }
    }

    func run() throws {
        let path: String
        if let target {
            path = try AttachablePrograms.path(for: target)
        } else {
            guard let only = try choose() else { return }
            path = only
        }
        let remote = try RemoteSource(path: path, reconnects: !noReconnect, client: OpScopeCommand.version, readOnly: readOnly)
        defer { remote.close() }
        var options = terminal.sessionOptions
        // From the source, not from the first welcome: after a reconnection the socket may serve
        // another program, and the title must name the one shown.
        options.sourceCaption = RemoteSource.caption
        let ending: OpScopeAttach.Ending
        do {
            ending = try OpScopeAttach.run(remote, options: options)
        } catch let unavailable as TerminalUnavailable {
            throw ValidationError(unavailable.description)
        }
        switch ending {
        case .quit: break
        case .signal(let number): throw ExitCode(128 + number)
        case .programGone(let reason): print("opscope: \(reason) (\(path))")
        }
    }

    /// Lists the attachable programs; the path of the only one (nil when there are several, or
    /// when only the list was asked for).
    private func choose() throws -> String? {
        let directory = SocketDirectory.standard()
        let (programs, problems) = AttachablePrograms.list(in: directory)
        for problem in problems { FileHandle.standardErrorWrite("opscope: \(problem)\n") }
        guard !programs.isEmpty else {
            throw ValidationError("no program to attach to in \(directory.path): run one with OpScopeAgent.start(monitor), or a demo with --serve "
                                  + "(opscope demo stuck --serve). A program serving at a socket path of its own (--serve --socket PATH, "
                                  + "AgentConfiguration.socketPath) is not listed here: opscope attach PATH")
        }
        if list || programs.count > 1 {
            print(AttachCommand.table(programs))
            if !list { print("\(programs.count) programs: attach to one with opscope attach PID") }
            return nil
        }
        return programs[0].path
    }

    /// The programs, one line each.
    static func table(_ programs: [AttachableProgram]) -> String {
        let nameWidth = max(7, programs.map(\.program.count).max() ?? 0)
        var lines = ["PID".padding(toLength: 8, withPad: " ", startingAt: 0) + "PROGRAM".padding(toLength: nameWidth + 2, withPad: " ", startingAt: 0)
                     + "STARTED (UTC)".padding(toLength: 22, withPad: " ", startingAt: 0) + "QUEUES"]
        for program in programs {
            let started = String(program.startedAt.prefix(19)).replacingOccurrences(of: "T", with: " ")
            let queues = program.queues.isEmpty ? "-" : program.queues.joined(separator: ", ")
            lines.append(String(program.processID).padding(toLength: 8, withPad: " ", startingAt: 0)
                         + program.program.padding(toLength: nameWidth + 2, withPad: " ", startingAt: 0)
                         + started.padding(toLength: 22, withPad: " ", startingAt: 0) + queues + (program.readOnly ? "  (read-only)" : ""))
        }
        return lines.joined(separator: "\n")
    }
}

extension ReportCommand {
    /// `opscope report --attach PID`: the report of a running program, from its agent.
    func reportAttached(_ target: String) throws {
        let path = try AttachablePrograms.path(for: target)
        let remote = try RemoteSource(path: path, reconnects: false, client: OpScopeCommand.version)
        defer { remote.close() }
        let report = try OpScopeAttach.report(remote)
        if output == .json {
            print(try OutputFormat.json(report))
        } else {
            print("\(remote.welcome.program) (pid \(remote.welcome.processID))")
            print(ReportText.render(report, forCommand: true))
        }
        if report.hasProblem { throw ExitCode(1) }
    }
}
