import Foundation
import OpScopeAgent
import TerminalKit

/// The choice `opscope attach` offers when several programs serve: one row per program (process
/// id, name, start time, queues, read-only), ↑ ↓ or j k to move, Enter to attach to the selected
/// one, q or Esc to leave without attaching, as k9s's context picker. It draws with TerminalKit's
/// table on any surface (ncurses in the program, the test terminal in tests), and its columns are
/// also the plain list printed where there is no terminal (`table`).
package struct ProgramPicker {
    /// How picking ended.
    package enum Outcome: Sendable, Equatable {
        /// Enter on this program.
        case chosen(AttachableProgram)
        /// q or Esc: nothing attached.
        case left
        /// A terminating signal arrived (SIGINT, SIGTERM, SIGHUP).
        case signal(Int32)
    }

    /// The programs, in the order shown.
    package let programs: [AttachableProgram]
    /// The row selected (0 when there is none).
    package private(set) var selected = 0
    private let unicode: Bool
    /// The surface's size at the last frame (nil: nothing drawn yet).
    private var drawnSize: (width: Int, height: Int)?
    private var dirty = true
    private var fullRedraw = true

    /// A picker over `programs`, the first selected; `unicode: false` draws with ASCII only.
    package init(_ programs: [AttachableProgram], unicode: Bool = true) {
        self.programs = programs
        self.unicode = unicode
    }

    // MARK: Keys

    /// What `key` does: moves the selection (nil: picking goes on), or ends it.
    package mutating func handle(_ key: Key) -> Outcome? {
        switch key {
        case .up, .character("k"): move(to: selected - 1)
        case .down, .character("j"): move(to: selected + 1)
        case .home, .character("g"): move(to: 0)
        case .end, .character("G"): move(to: programs.count - 1)
        case .pageUp: move(to: selected - 10)
        case .pageDown: move(to: selected + 10)
        case .enter: if programs.indices.contains(selected) { return .chosen(programs[selected]) }
        case .escape, .character("q"): return .left
        case .mouse(let event) where event.kind == .wheelUp: move(to: selected - 1)
        case .mouse(let event) where event.kind == .wheelDown: move(to: selected + 1)
        case .resize:
            fullRedraw = true
            dirty = true
        case .character, .left, .right, .tab, .backTab, .backspace, .delete, .function, .control, .mouse:
            break
        }
        return nil
    }

    private mutating func move(to row: Int) {
        let target = min(max(0, row), max(0, programs.count - 1))
        if target != selected { dirty = true }
        selected = target
    }

    // MARK: Drawing

    /// The screen at `width` × `height`: a title, the table in a frame, the keys at the bottom.
    package func render(width: Int, height: Int) -> Buffer {
        var buffer = Buffer(width: max(0, width), height: max(0, height))
        let (top, rest) = buffer.area.splitTop(1)
        let (middle, bottom) = rest.splitBottom(1)
        let count = programs.count
        buffer.write("Attach to which program? \(count) serve\(count == 1 ? "s" : "")\(directoryNote)", x: top.x, y: top.y,
                     style: Style(attributes: .bold), clip: top)
        let inner = Frame(title: "Programs", style: Style(attributes: .dim), ascii: !unicode).render(into: &buffer, area: middle)
        let nameWidth = min(24, max(7, programs.map(\.program.count).max() ?? 0))
        let columns = zip(Self.headings, [7, nameWidth, 19, 0]).map { TableView.Column($0, width: $1) }
        let rows = programs.map { program in Self.cells(of: program).map { TextBlock.Span($0) } }
        TableView(columns: columns, rows: rows, selected: count > 0 ? selected : nil).render(into: &buffer, area: inner)
        let keys = unicode ? "↑ ↓ j k move   Enter attach   q Esc quit" : "Up Down j k move   Enter attach   q Esc quit"
        buffer.write(keys, x: bottom.x, y: bottom.y, style: Style(attributes: .dim), clip: bottom)
        return buffer
    }

    /// ` in DIRECTORY` when every program serves in the same one (they do when listed from it).
    private var directoryNote: String {
        let directories = Set(programs.map { URL(fileURLWithPath: $0.path).deletingLastPathComponent().path })
        return directories.count == 1 ? " in \(directories.first!)" : ""
    }

    // MARK: The loop

    /// One turn: a signal, then the keys waiting, then a frame if the screen would change (a
    /// move, a resize). Returns how picking ended, if it did.
    package mutating func step(on surface: any TerminalSurface) -> Outcome? {
        if let signal = surface.pendingSignal { return .signal(signal) }
        while let key = surface.readKey() {
            if let outcome = handle(key) { return outcome }
        }
        let size = surface.size
        if dirty || drawnSize.map({ $0 != size }) ?? true {
            surface.draw(render(width: size.width, height: size.height), full: fullRedraw)
            drawnSize = size
            dirty = false
            fullRedraw = false
        }
        return nil
    }

    /// Turns until picking ends; between turns it waits for input, so an idle picker sleeps.
    package mutating func run(on surface: any TerminalSurface) -> Outcome {
        while true {
            if let outcome = step(on: surface) { return outcome }
            surface.waitForInput(seconds: 0.25)
        }
    }

    // MARK: Columns

    /// The columns' headings.
    package static let headings = ["PID", "PROGRAM", "STARTED (UTC)", "QUEUES"]

    /// A program's cells under `headings`: the start time to the second, the queues (`-` for
    /// none) followed by `(read-only)` for a program that refuses commands.
    package static func cells(of program: AttachableProgram) -> [String] {
        let started = String(program.startedAt.prefix(19)).replacingOccurrences(of: "T", with: " ")
        let queues = program.queues.isEmpty ? "-" : program.queues.joined(separator: ", ")
        return [String(program.processID), program.program, started, queues + (program.readOnly ? "  (read-only)" : "")]
    }

    /// The programs as plain text, one line each under the headings (`opscope attach --list`,
    /// and the list printed where there is no terminal to pick in).
    package static func table(_ programs: [AttachableProgram]) -> String {
        let rows = [headings] + programs.map(cells(of:))
        let nameWidth = max(7, programs.map(\.program.count).max() ?? 0)
        let widths = [8, nameWidth + 2, 22]
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined() + row[3]
        }.joined(separator: "\n")
    }
}
