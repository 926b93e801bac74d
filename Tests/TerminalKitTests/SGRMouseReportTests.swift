import TerminalKit
import Testing

@Suite("TerminalKit: SGR mouse reports")
struct SGRMouseReportTests {
    @Test("a press, the wheel, modifiers; releases, motion and other buttons are not used; malformed bodies are nothing")
    func parsing() {
        #expect(SGRMouseReport.event("0;241;6M") == MouseEvent(.press, x: 240, y: 5))
        #expect(SGRMouseReport.event("64;1;1M") == MouseEvent(.wheelUp, x: 0, y: 0))
        #expect(SGRMouseReport.event("65;300;70M") == MouseEvent(.wheelDown, x: 299, y: 69))
        #expect(SGRMouseReport.event("16;5;5M") == MouseEvent(.press, x: 4, y: 4))   // Ctrl-click
        #expect(SGRMouseReport.event("0;241;6m") == nil)    // release
        #expect(SGRMouseReport.event("32;10;10M") == nil)   // drag
        #expect(SGRMouseReport.event("35;10;10M") == nil)   // motion, no button
        #expect(SGRMouseReport.event("2;10;10M") == nil)    // right button
        for malformed in ["", "M", "0;1M", "0;1;2;3M", "a;1;1M", "0;0;1M", "0;1;1", ";;M"] {
            #expect(SGRMouseReport.event(malformed) == nil, "\(malformed)")
        }
        #expect(SGRMouseReport.continues("7") && SGRMouseReport.continues(";"))
        #expect(!SGRMouseReport.continues("q") && !SGRMouseReport.continues("٣"))
    }
}
