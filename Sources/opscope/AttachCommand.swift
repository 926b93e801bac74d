import ArgumentParser
import DemoLauncher
import Foundation
import OpScope
#if canImport(Glibc)
import Glibc
#endif

/// `opscope attach [PID|PATH] [--no-reconnect]`: the dashboard on a program running elsewhere.
struct AttachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Open the dashboard on a running program that serves an OpScope agent.",
        discussion: """
            Without an argument, attaches to the only program that can be attached to, or, when several serve, \
            lets you choose one (process id, name, start time, queues): up and down or j and k move, Enter attaches, \
            q or Esc quits without attaching. Where there is no terminal to choose in (a pipe, CI), it prints the \
            list and fails with exit status 2, since nothing was attached; --list prints it and exits 0. A program \
            serves an agent after OpScopeAgent.start(monitor); every demo does with --serve. When the program exits, \
            the dashboard says so, keeps its last state, and attaches again when a program serves the same socket, or, \
            for a program serving at its default socket (PID.sock), when the same program is started again \
            (--no-reconnect quits instead).
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
        if let target {
            try attach(AttachablePrograms.path(for: target))
            return
        }
        let directory = SocketDirectory.standard()
        let (programs, problems) = AttachablePrograms.list(in: directory)
        for problem in problems { FileHandle.standardErrorWrite("opscope: \(problem)\n") }
        guard !programs.isEmpty else {
            throw ValidationError("no program to attach to in \(directory.path): run one with OpScopeAgent.start(monitor), or a demo with --serve "
                                  + "(opscope demo stuck --serve). A program serving at a socket path of its own (--serve --socket PATH, "
                                  + "AgentConfiguration.socketPath) is not listed here: opscope attach PATH")
        }
        if list {
            print(ProgramPicker.table(programs))
        } else if programs.count == 1 {
            try attach(programs[0].path)
        } else if isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
            try pick(programs)
        } else {
            try refuseToPick(programs, because: "there is no terminal to choose in")
        }
    }

    /// The dashboard on the program at `path`.
    private func attach(_ path: String) throws {
        let remote = try Self.connect(path, reconnects: !noReconnect, readOnly: readOnly)
        defer { remote.close() }
        let ending: OpScopeAttach.Ending
        do {
            ending = try OpScopeAttach.run(remote, options: sessionOptions)
        } catch let unavailable as TerminalUnavailable {
            throw ValidationError(unavailable.description)
        }
        try finish(ending, path: remote.path)
    }

    /// The picker, then the dashboard on the program chosen, on the same screen.
    private func pick(_ programs: [AttachableProgram]) throws {
        let (reconnects, readOnly) = (!noReconnect, readOnly)
        let ending: OpScopeAttach.Ending
        do {
            ending = try OpScopeAttach.run(choosingFrom: programs, options: sessionOptions) { program in
                try Self.connect(program.path, reconnects: reconnects, readOnly: readOnly)
            }
        } catch let unavailable as TerminalUnavailable {
            // The terminal is refused before the choice is offered (TERM unusable): as for a pipe.
            try refuseToPick(programs, because: unavailable.problem)
            return
        }
        try finish(ending, path: nil)
    }

    /// Where no choice can be offered: the list and the way to attach, and a failure, since a
    /// script that asked to attach got nothing attached (`--list` is the way to only list).
    private func refuseToPick(_ programs: [AttachableProgram], because reason: String) throws {
        // Written at once, not buffered: before the error line where both go to one place (2>&1).
        FileHandle.standardOutput.write(Data((ProgramPicker.table(programs) + "\n").utf8))
        throw ValidationError("\(programs.count) programs serve and none was attached (\(reason)): attach to one with "
                              + "opscope attach PID, or list them with opscope attach --list")
    }

    private static func connect(_ path: String, reconnects: Bool, readOnly: Bool) throws -> RemoteSource {
        try RemoteSource(path: path, reconnects: reconnects, client: OpScopeCommand.version, readOnly: readOnly)
    }

    private var sessionOptions: SessionOptions {
        var options = terminal.sessionOptions
        // From the source, not from the first welcome: after a reconnection the socket may serve
        // another program, and the title must name the one shown.
        options.sourceCaption = RemoteSource.caption
        return options
    }

    /// The exit the ending calls for.
    private func finish(_ ending: OpScopeAttach.Ending, path: String?) throws {
        switch ending {
        case .quit, .nothingChosen: break
        case .signal(let number): throw ExitCode(128 + number)
        case .programGone(let reason): print("opscope: \(reason)" + (path.map { " (\($0))" } ?? ""))
        }
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
