import CNcurses
import TerminalGuard

import TerminalKit
#if canImport(Glibc)
import Glibc
#endif

/// The one place that talks to ncurses: starts and restores the terminal, draws buffers (only
/// the cells that changed since the last frame), and decodes keys and mouse events.
///
/// Not thread-safe (ncurses is not): use it from one thread.
public final class NcursesTerminal: TerminalSurface {
    private let options: TerminalOptions
    private var screen: OpaquePointer?
    private var shown: Buffer?
    private var colorMode: ColorMode = .none
    private var pairs: [PairKey: Int16] = [:]
    private var running = false
    /// The key code ncurses returns for `ESC [ <` where it does not decode SGR mouse reports
    /// itself (0: it does, or the mouse is off); the rest of the report is read here.
    private var sgrMouseCode: Int32 = 0
    /// Where the screen is written (for the few sequences sent around ncurses).
    private var outputDescriptor = STDOUT_FILENO
    /// The terminal's size, updated on resize.
    public private(set) var size: (width: Int, height: Int) = (0, 0)

    private enum ColorMode { case none, eight, sixteen, full }
    private struct PairKey: Hashable { var foreground: Int16; var background: Int16 }

    /// Starts ncurses on the process's terminal. Fails, with a one-line reason and a hint, when
    /// standard output is not a terminal or TERM cannot be used.
    public init(options: TerminalOptions = TerminalOptions()) throws {
        self.options = options
        guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
            throw TerminalUnavailable("standard output is not a terminal: the dashboard needs one", alternative: "opscope report DEMO --after 2 --json")
        }
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard !term.isEmpty, term != "dumb", term != "unknown" else {
            throw TerminalUnavailable("TERM is \(term.isEmpty ? "not set" : "'\(term)'"): the dashboard needs a terminal that can address the screen, e.g. TERM=xterm-256color", alternative: "opscope report DEMO --json")
        }
        setlocale(LC_ALL, "")
        SignalWatch.install()
        opscope_install_crash_guard()
        screen = opscope_newterm()
        guard screen != nil else {
            SignalWatch.uninstall()
            opscope_remove_crash_guard()
            throw TerminalUnavailable("TERM '\(term)' is not known to this system's terminfo (install ncurses-term, or use TERM=xterm-256color)")
        }
        running = true
        configure()
    }

    /// A terminal of type `term` that writes to `output` and reads from `input` (not the
    /// process's terminal): for measuring what frames cost in bytes. Size from `width` × `height`.
    public init(term: String, output: Int32, input: Int32, width: Int, height: Int, options: TerminalOptions = TerminalOptions()) throws {
        self.options = options
        outputDescriptor = output
        setenv("COLUMNS", String(width), 1)
        setenv("LINES", String(height), 1)
        setlocale(LC_ALL, "")
        screen = opscope_newterm_on(term, output, input)
        guard screen != nil else { throw TerminalUnavailable("cannot open a '\(term)' screen on the given descriptors") }
        running = true
        configure()
    }

    private func configure() {
        cbreak()          // keys arrive at once; Ctrl-C still raises SIGINT (handled above)
        // No XON/XOFF flow control: a stray Ctrl-S would stop the terminal's output and freeze
        // the dashboard until Ctrl-Q. ncurses restores the shell's modes (with IXON) on exit.
        var mode = termios()
        if tcgetattr(STDIN_FILENO, &mode) == 0 {
            mode.c_iflag &= ~tcflag_t(IXON)
            tcsetattr(STDIN_FILENO, TCSANOW, &mode)
        }
        noecho()
        // Recorded as the program's mode, so that coming back from Ctrl-Z restores it too.
        def_prog_mode()
        nonl()
        opscope_keypad(1)
        defineHomeAndEnd()
        curs_set(0)
        set_escdelay(25)  // Esc alone is a key; do not wait a second for a sequence
        timeout(0)
        if options.color, has_colors() {
            start_color()
            use_default_colors()
            let colors = opscope_colors()
            colorMode = colors >= 256 ? .full : (colors >= 16 ? .sixteen : .eight)
        }
        if options.mouse {
            mouseinterval(0)
            mousemask(opscope_mouse_mask(), nil)
            // SGR reports (1006) asked for whatever TERM says: ncurses asks for them only where
            // terminfo's XM does (xterm), and the X10 reports it gets elsewhere (tmux-256color,
            // screen) cannot name a column past 223. Where ncurses decodes only X10, `ESC [ <`
            // becomes a key code of its own and the report is read in `readSGRMouse`.
            sgrMouseCode = max(0, opscope_define_sgr_mouse_key())
            send(Self.sgrMouseOn)
        }
        updateSize()
    }

    deinit { stop() }

    /// Asks the terminal for SGR mouse reports; `sgrMouseOff` puts it back (the crash guard
    /// writes the same).
    private static let sgrMouseOn = "\u{1B}[?1006h"
    private static let sgrMouseOff = "\u{1B}[?1006l"

    /// Writes a mode change straight to the terminal. Not through `putp`: it goes to stdio's
    /// buffer, which nothing flushes until the program ends. A mode does not depend on what
    /// ncurses still holds to write, so the order does not matter.
    private func send(_ sequence: String) {
        var bytes = Array(sequence.utf8)
        _ = bytes.withUnsafeMutableBytes { write(outputDescriptor, $0.baseAddress, $0.count) }
    }

    /// Home and End arrive in several spellings, and terminfo knows only the one of the
    /// terminal it describes: tmux and screen send `ESC [1~` / `ESC [4~` whatever TERM says,
    /// rxvt `ESC [7~` / `ESC [8~`, xterm `ESC OH` / `ESC OF` or `ESC [H` / `ESC [F`. Unknown
    /// ones would reach the dashboard as Esc and three characters.
    private func defineHomeAndEnd() {
        let spellings: [(String, Int32)] = [
            ("\u{1B}[1~", KEY_HOME), ("\u{1B}[7~", KEY_HOME), ("\u{1B}OH", KEY_HOME), ("\u{1B}[H", KEY_HOME),
            ("\u{1B}[4~", KEY_END), ("\u{1B}[8~", KEY_END), ("\u{1B}OF", KEY_END), ("\u{1B}[F", KEY_END),
        ]
        for (sequence, code) in spellings { _ = define_key(sequence, code) }
    }

    /// Restores the terminal (idempotent): leaves the alternate screen, shows the cursor, and
    /// puts the line discipline back as it was.
    public func stop() {
        guard running else { return }
        running = false
        curs_set(1)
        // The shell gets its terminal back without SGR reports.
        if options.mouse { send(Self.sgrMouseOff) }
        endwin()
        if let screen { delscreen(screen) }
        screen = nil
        SignalWatch.uninstall()
        opscope_remove_crash_guard()
        opscope_flush_stdout()
    }

    /// A terminating signal that arrived (SIGINT, SIGTERM, SIGHUP), if any.
    public var pendingSignal: Int32? { SignalWatch.pending }

    /// Ctrl-Z: gives the shell its terminal back (main screen, cursor, its own modes), stops the
    /// process, and once continued takes the terminal again with every cell to be redrawn.
    private func suspendForShell() {
        curs_set(1)
        if options.mouse { send(Self.sgrMouseOff) }
        endwin()
        opscope_flush_stdout()
        SignalWatch.stopUntilContinued()
        // Back after `fg`: the first refresh after endwin restores the program's mode and screen;
        // the shell drew over it, so nothing ncurses remembers of the screen is trusted.
        opscope_clear_all()
        if options.mouse { send(Self.sgrMouseOn) }
        refresh()
        curs_set(0)
        updateSize()
        shown = nil
    }

    private func updateSize() {
        size = (Int(opscope_width()), Int(opscope_height()))
    }

    // MARK: Drawing

    /// Shows `buffer`: only the cells that differ from the last frame are sent (everything
    /// after a resize or with `full`).
    public func draw(_ buffer: Buffer, full: Bool = false) {
        guard running else { return }
        if full {
            opscope_clear_all()
            shown = nil
        }
        let previous = shown.flatMap { $0.width == buffer.width && $0.height == buffer.height ? $0 : nil }
        if previous == nil { erase() }
        var text: [wchar_t] = []
        text.reserveCapacity(buffer.width)
        for run in buffer.changes(since: previous) {
            var start = 0
            while start < run.cells.count {
                let style = run.cells[start].style
                var end = start
                text.removeAll(keepingCapacity: true)
                // The right half of a wide character is drawn by its left half (the terminal
                // moves two columns): it adds nothing and never splits a run.
                while end < run.cells.count, run.cells[end].isContinuation || run.cells[end].style == style {
                    let cell = run.cells[end]
                    end += 1
                    if cell.isContinuation { continue }
                    for scalar in cell.character.unicodeScalars where !TerminalText.needsEscape(scalar) {
                        text.append(wchar_t(bitPattern: scalar.value))
                    }
                }
                apply(style)
                // The last cell of the screen: writing it may scroll on some terminals; ncurses handles it.
                _ = text.withUnsafeBufferPointer { opscope_put(Int32(run.y), Int32(run.x + start), $0.baseAddress, Int32($0.count)) }
                start = end
            }
        }
        refresh()
        shown = buffer
    }

    private func apply(_ style: Style) {
        let attributes = opscope_attributes(style.attributes.contains(.bold) ? 1 : 0, style.attributes.contains(.dim) ? 1 : 0,
                                            style.attributes.contains(.underline) ? 1 : 0, style.attributes.contains(.reverse) ? 1 : 0)
        opscope_set_style(attributes, pair(for: style))
    }

    private func number(_ color: Color) -> Int16 {
        switch (color, colorMode) {
        case (.default, _), (_, .none): return -1
        case (.basic(let value), .eight): return Int16(value & 7)
        case (.basic(let value), _): return Int16(value & 15)
        case (.indexed(let value), .full): return Int16(value)
        case (.indexed, _): return Int16(color.basic8 ?? 7)
        }
    }

    private func pair(for style: Style) -> Int16 {
        guard colorMode != .none else { return 0 }
        let key = PairKey(foreground: number(style.foreground), background: number(style.background))
        if key.foreground == -1, key.background == -1 { return 0 }
        if let known = pairs[key] { return known }
        let next = Int16(pairs.count + 1)
        guard Int32(next) < opscope_color_pairs() else { return 0 }
        init_pair(next, key.foreground, key.background)
        pairs[key] = next
        return next
    }

    // MARK: Input

    /// Waits up to `seconds` for input on the terminal (a key, a mouse event, or the resize
    /// ncurses reports as a key); returns at once when some is waiting. A signal cuts it short.
    public func waitForInput(seconds: Double) {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(max(0, seconds) * 1_000))
    }

    /// The next key if one is waiting (never blocks). After Ctrl-Z and `fg`, `.resize`: the
    /// whole screen must be drawn again (and its size may have changed meanwhile).
    public func readKey() -> Key? {
        guard running else { return nil }
        if SignalWatch.takeSuspendRequest() {
            suspendForShell()
            return .resize
        }
        // A mouse report the dashboard does not use (a release, motion) is skipped, not taken
        // for the end of the input.
        while true {
            let code = opscope_get_byte()
            if code == ERR { return nil }
            if code >= KEY_MIN {
                if sgrMouseCode != 0, code == sgrMouseCode {
                    if let event = readSGRMouse() { return .mouse(event) }
                    continue
                }
                return decode(code: code)
            }
            let byte = UInt8(truncatingIfNeeded: code)
            return byte < 0x80 ? decode(character: UInt32(byte)) : readCharacter(startingWith: byte)
        }
    }

    /// A UTF-8 character from its first byte: the continuation bytes that follow (a short wait
    /// covers a character split in transit). A byte that cannot continue it (an Escape, a q, a
    /// key code) is given back to be read as a key of its own, and what was read shows as
    /// U+FFFD: hostile or broken input costs its own bytes, never the keys after it.
    private func readCharacter(startingWith lead: UInt8) -> Key? {
        let length = switch lead {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
        guard length > 0 else { return .character("\u{FFFD}") }
        var bytes = [lead]
        timeout(30)
        defer { timeout(0) }
        while bytes.count < length {
            let code = opscope_get_byte()
            if code == ERR { break }
            guard code < KEY_MIN, (0x80...0xBF).contains(code) else {
                _ = ungetch(code)
                break
            }
            bytes.append(UInt8(code))
        }
        guard bytes.count == length, let text = String(validating: bytes, as: UTF8.self), let character = text.first else {
            return .character("\u{FFFD}")
        }
        return decode(character: character.unicodeScalars.first!.value)
    }

    /// The rest of an SGR mouse report after its `ESC [ <`: digits and `;` up to `M` or `m`.
    /// It normally arrives in one piece; a short wait covers a report split in transit. A
    /// character that cannot continue it is given back to be read as a key.
    private func readSGRMouse() -> MouseEvent? {
        timeout(50)
        defer { timeout(0) }
        var body = ""
        while body.count < SGRMouseReport.maximumLength {
            let code = opscope_get_byte()
            guard code != ERR else { return nil }
            // Only ASCII continues a report: anything else (a key code, a byte of a multibyte
            // character) is given back whole, to be read as what it is.
            guard code < 0x80, let scalar = Unicode.Scalar(UInt32(code)) else {
                _ = ungetch(code)
                return nil
            }
            let character = Character(scalar)
            if character == "M" || character == "m" { return SGRMouseReport.event(body + String(character)) }
            guard SGRMouseReport.continues(character) else {
                _ = ungetch(code)
                return nil
            }
            body.append(character)
        }
        return nil
    }

    private func decode(code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_RESIZE:
            updateSize()
            shown = nil
            return .resize
        case KEY_MOUSE:
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            let x = Int(event.x)
            let y = Int(event.y)
            if opscope_mouse_is_wheel_up(event.bstate) != 0 { return .mouse(MouseEvent(.wheelUp, x: x, y: y)) }
            if opscope_mouse_is_wheel_down(event.bstate) != 0 { return .mouse(MouseEvent(.wheelDown, x: x, y: y)) }
            if opscope_mouse_is_click(event.bstate) != 0 { return .mouse(MouseEvent(.press, x: x, y: y)) }
            return nil
        default:
            for number in 1...12 where code == opscope_key_f(Int32(number)) { return .function(number) }
            return nil
        }
    }

    private func decode(character value: UInt32) -> Key? {
        switch value {
        case 27: return .escape
        case 9: return .tab
        case 10, 13: return .enter
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(value + 96)!))
        default:
            // Anything that is not a valid scalar (bytes that were not UTF-8) shows as U+FFFD.
            guard let scalar = Unicode.Scalar(value) else { return .character("\u{FFFD}") }
            return .character(Character(scalar))
        }
    }
}
