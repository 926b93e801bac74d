import DashboardModel
import Foundation
import DashboardSession
import DashboardUI
import OpScopeTestSupport
import OperationEvents
import TerminalKit
import Testing

/// Issue 17, long runs: 20,000 seeded random keystrokes across every view, prompt, filter and
/// playback key, with resizes, mouse events and events still arriving. Nothing may crash, every
/// frame must be whole, nothing unsafe may reach a cell, and the session must still quit.
@Suite("Session: a storm of random keys")
struct KeyStormSessionTests {
    @Test("20,000 random keys: no crash, every frame whole, q still quits")
    func storm() {
        let seed = SeededRandom.seed(default: 20_000, environment: ProcessInfo.processInfo.environment)
        var random = SeededRandom(seed: seed)
        let source = ScriptedSource(pipelineScript(), templates: [WorkTemplateInfo(name: "download", summary: "fetch", queue: QueueID(1))])
        let terminal = TestTerminal(width: 120, height: 40)
        var session = Session(source: source)
        // Every bound key, plus what people also hit: letters, digits, Enter, Esc, editing keys,
        // F-keys, arrows, the mouse, and text for prompts and the filter.
        var pool: [Key] = KeyBindings.all.flatMap(\.keys)
        pool += [.enter, .escape, .tab, .backTab, .backspace, .delete, .up, .down, .left, .right,
                 .pageUp, .pageDown, .home, .end, .control("l"), .control("c")]
        pool += (1...12).map { Key.function($0) }
        pool += "abcdefghijklmnopqrstuvwxyz0123456789 :/-+=.,[]{}()#?!\u{1B}漢🚀".map { Key.character($0) }
        var nextID = 100
        var quitAt: Int?
        for index in 0..<20_000 {
            var key = pool[Int.random(in: 0..<pool.count, using: &random)]
            // q and F10 would end the storm early: they are tested at the end.
            if key == .character("q") || key == .function(10) || key == .control("c") { key = .character("j") }
            switch Int.random(in: 0..<100, using: &random) {
            case 0:
                terminal.size = (Int.random(in: 1...200, using: &random), Int.random(in: 1...60, using: &random))
                key = .resize
            case 1:
                key = .mouse(MouseEvent([.press, .wheelUp, .wheelDown][Int.random(in: 0..<3, using: &random)],
                                        x: Int.random(in: -2...201, using: &random), y: Int.random(in: -2...61, using: &random)))
            default:
                break
            }
            terminal.send(key)
            if index % 7 == 0 {
                if index % 350 == 0 { source.append(moreWork(from: &nextID, at: source.now(), &random)) }
                // More than a frame interval: every turn that has something to show draws it.
                source.advance(by: 50_000_000)
                if let ending = session.step(on: terminal) {
                    quitAt = index
                    Issue.record("the session ended (\(ending)) at key \(index) (seed \(seed))")
                    break
                }
                let screen = terminal.screen
                #expect(screen.width == terminal.size.width && screen.height == terminal.size.height,
                        "frame \(screen.width)x\(screen.height) for a \(terminal.size) terminal (seed \(seed))")
                let unsafe = (0..<screen.height).contains { y in
                    (0..<screen.width).contains { x in
                        let cell = screen[x, y]
                        return !cell.isContinuation && cell.character.unicodeScalars.contains(where: TerminalText.needsEscape)
                    }
                }
                #expect(!unsafe, "an unsafe character reached the screen at key \(index) (seed \(seed))")
                if unsafe { break }
            }
        }
        guard quitAt == nil else { return }
        // Whatever prompt or overlay is open, Esc closes it; then q ends the session.
        terminal.size = (120, 40)
        terminal.send(.resize, .escape, .escape, .escape, .character("q"))
        var ending: SessionEnding?
        for _ in 0..<10 where ending == nil {
            source.advance(by: 20_000_000)
            ending = session.step(on: terminal)
            if ending == nil, terminal.pendingKeys == 0 { terminal.send(.escape, .character("q")) }
        }
        #expect(ending == .quit, "the session did not quit after the storm (seed \(seed)):\n\(terminal.text)")
    }

    /// A little more work arriving: an operation added, started and finished, another left waiting.
    private func moreWork(from next: inout Int, at time: UInt64, _ random: inout SeededRandom) -> EventScript {
        var script = EventScript()
        script.time = time
        let queue = Int.random(in: 1...3, using: &random)
        script.add(next, queue: queue, "storm-\(next)")
        script.start(next)
        script.finish(next, cancelled: Bool.random(using: &random))
        script.add(next + 1, queue: queue, "storm-\(next + 1)", after: [next - 2])
        next += 2
        return script
    }
}
