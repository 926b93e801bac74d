import Foundation
import OpScope
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The choice `opscope attach` offers when several programs serve, on the test terminal: what it
/// draws, what each key does, and how it follows a resize.
@Suite("Program picker: choosing the program to attach to")
struct ProgramPickerTests {
    private let programs = [
        AttachableProgram(path: "/run/user/1000/opscope/4242.sock", processID: 4242, program: "stuck",
                          startedAt: "2030-01-01T10:00:00.123456789Z", queues: ["work", "paused"], readOnly: false),
        AttachableProgram(path: "/run/user/1000/opscope/5151.sock", processID: 5151, program: "pipeline",
                          startedAt: "2030-01-01T10:05:00.000000000Z", queues: ["q1 io", "q2 decode", "q3 ui"], readOnly: true),
        AttachableProgram(path: "/run/user/1000/opscope/6262.sock", processID: 6262, program: "readiness",
                          startedAt: "2030-01-01T10:06:30.000000000Z", queues: [], readOnly: false),
    ]

    private func lines(_ terminal: TestTerminal) -> [String] { terminal.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The row showing process `pid`.
    private func row(of pid: Int32, _ terminal: TestTerminal) -> Int? { lines(terminal).firstIndex { $0.contains("│\(pid) ") } }

    /// Whether the row of `pid` is drawn selected (reversed) across the table.
    private func isSelected(_ pid: Int32, _ terminal: TestTerminal) -> Bool {
        guard let y = row(of: pid, terminal) else { return false }
        return (1..<(terminal.size.width - 1)).allSatisfy { terminal.screen[$0, y].style.attributes.contains(.reverse) }
    }

    private func selectedPIDs(_ terminal: TestTerminal) -> [Int32] { programs.map(\.processID).filter { isSelected($0, terminal) } }

    @Test("80x24: the title, the columns of attach --list, one row per program, the first selected, the keys at the bottom")
    func draws() throws {
        let terminal = TestTerminal(width: 80, height: 24)
        var picker = ProgramPicker(programs)
        #expect(picker.step(on: terminal) == nil)
        let screen = lines(terminal)
        #expect(screen[0].hasPrefix("Attach to which program? 3 serve in /run/user/1000/opscope"), "\(terminal.text)")
        #expect(screen[1].hasPrefix("┌ Programs ─") && screen[1].hasSuffix("┐"), "\(screen[1])")
        #expect(screen[2] == "│" + "PID     PROGRAM   STARTED (UTC)       QUEUES".padding(toLength: 78, withPad: " ", startingAt: 0) + "│")
        #expect(screen[3].hasPrefix("│4242    stuck     2030-01-01 10:00:00 work, paused "), "\(screen[3])")
        #expect(screen[4].hasPrefix("│5151    pipeline  2030-01-01 10:05:00 q1 io, q2 decode, q3 ui  (read-only) "), "\(screen[4])")
        #expect(screen[5].hasPrefix("│6262    readiness 2030-01-01 10:06:30 - "), "\(screen[5])")
        #expect(screen[22].hasPrefix("└") && screen[22].hasSuffix("┘"))
        #expect(screen[23].hasPrefix("↑ ↓ j k move   Enter attach   q Esc quit"), "\(screen[23])")
        #expect(selectedPIDs(terminal) == [4242])
        #expect(terminal.screen[1, 2].style.attributes.contains(.bold), "the headings stand out")
    }

    @Test("↓ and j move down, ↑ and k up, stopping at the ends; g and G, Home and End jump; the wheel moves; Enter chooses")
    func keysMove() {
        let terminal = TestTerminal(width: 100, height: 30)
        var picker = ProgramPicker(programs)
        _ = picker.step(on: terminal)
        let moves: [(Key, Int32)] = [(.down, 5151), (.character("j"), 6262), (.down, 6262), (.up, 5151), (.character("k"), 4242),
                                     (.character("k"), 4242), (.character("G"), 6262), (.character("g"), 4242), (.end, 6262),
                                     (.home, 4242), (.mouse(MouseEvent(.wheelDown, x: 5, y: 5)), 5151),
                                     (.mouse(MouseEvent(.wheelUp, x: 5, y: 5)), 4242), (.character("x"), 4242), (.down, 5151)]
        for (key, pid) in moves {
            terminal.send(key)
            #expect(picker.step(on: terminal) == nil, "\(key)")
            #expect(selectedPIDs(terminal) == [pid], "after \(key): \(terminal.text)")
            #expect(picker.programs[picker.selected].processID == pid)
        }
        terminal.send(.enter)
        #expect(picker.step(on: terminal) == .chosen(programs[1]))
    }

    @Test("q and Esc leave without choosing; a terminating signal ends the choice too", arguments: [Key.character("q"), Key.escape])
    func leaves(key: Key) {
        let terminal = TestTerminal(width: 80, height: 24)
        var picker = ProgramPicker(programs)
        terminal.send(.down, key, .enter)
        #expect(picker.step(on: terminal) == .left)
        #expect(terminal.pendingKeys == 1, "the keys after it are not taken")
        terminal.pendingSignal = SIGTERM
        var another = ProgramPicker(programs)
        #expect(another.run(on: terminal) == .signal(SIGTERM))
    }

    @Test("a resize redraws everything at the new size, the selection kept; small and 200x60 screens stay inside")
    func resize() {
        let terminal = TestTerminal(width: 80, height: 24)
        var picker = ProgramPicker(programs)
        terminal.send(.down)
        _ = picker.step(on: terminal)
        let full = terminal.fullRedraws
        terminal.size = (200, 60)
        terminal.send(.resize)
        #expect(picker.step(on: terminal) == nil)
        #expect(terminal.fullRedraws == full + 1)
        #expect(terminal.screen.width == 200 && terminal.screen.height == 60)
        let screen = lines(terminal)
        #expect(screen[1].count == 200 && screen[1].hasSuffix("┐") && screen[58].hasSuffix("┘"), "\(terminal.text)")
        #expect(selectedPIDs(terminal) == [5151])
        // No resize key (a surface that only changes size): the next turn still draws the new size.
        terminal.size = (30, 6)
        _ = picker.step(on: terminal)
        #expect(terminal.screen.width == 30 && lines(terminal).count == 6)
        #expect(lines(terminal).allSatisfy { $0.count <= 30 })
        for (width, height) in [(0, 0), (1, 1), (10, 2), (12, 3)] {
            let buffer = picker.render(width: width, height: height)
            #expect(buffer.width == width && buffer.height == height)
        }
    }

    @Test("--ascii: no box drawing or arrows")
    func ascii() {
        let terminal = TestTerminal(width: 80, height: 24)
        var picker = ProgramPicker(programs, unicode: false)
        _ = picker.step(on: terminal)
        #expect(lines(terminal)[1].hasPrefix("+ Programs -"))
        #expect(lines(terminal)[23].hasPrefix("Up Down j k move   Enter attach   q Esc quit"))
        let ascii = terminal.text.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(ascii, "\(terminal.text)")
    }

    @Test("the plain list (attach --list, and where there is no terminal) has the picker's columns")
    func table() {
        #expect(ProgramPicker.table(programs) == """
            PID     PROGRAM    STARTED (UTC)         QUEUES
            4242    stuck      2030-01-01 10:00:00   work, paused
            5151    pipeline   2030-01-01 10:05:00   q1 io, q2 decode, q3 ui  (read-only)
            6262    readiness  2030-01-01 10:06:30   -
            """)
    }
}
