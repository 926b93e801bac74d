import DashboardUI
import Foundation
import OpScopeTestSupport
import Testing

/// The "Keys" table of docs/keys-and-views.md (the guide README links for every key) is the key
/// table itself (`KeyBindings.markdownTable()`), and its "Views" table the list of views
/// (`ScreenViews.markdownTable()`), word for word; `OPSCOPE_RECORD=1` rewrites them after the
/// tables changed.
@Suite("The documented keys are the dashboard's keys")
struct ReadmeKeysTests {
    @Test("the Keys section of docs/keys-and-views.md is generated from KeyBindings")
    func readmeMatches() throws {
        try expectGenerated(KeyBindings.markdownTable(), named: "keys", from: "KeyBindings")
    }

    @Test("the Views table of docs/keys-and-views.md is generated from the list of views")
    func readmeViewsMatch() throws {
        try expectGenerated(ScreenViews.markdownTable(), named: "views", from: "ScreenViews")
    }

    /// The guide's section generated from `source` is `wanted`, word for word (rewritten instead
    /// with `OPSCOPE_RECORD=1`).
    private func expectGenerated(_ wanted: String, named name: String, from source: String) throws {
        let section = GeneratedSection("docs/keys-and-views.md", name: name, from: source, checkedBy: "ReadmeKeysTests")
        #expect(try section.current(wanted: wanted) == wanted,
                "docs/keys-and-views.md's \(name) differ from \(source): run with OPSCOPE_RECORD=1 to regenerate")
    }

    @Test("every key appears once in the table, and every bar entry names a bound action")
    func tableIsConsistent() {
        var seen: Set<String> = []
        for binding in KeyBindings.all {
            for key in binding.keys { #expect(seen.insert("\(key)").inserted, "\(key) bound twice") }
            if binding.bar != nil { #expect(binding.action != nil) }
        }
        #expect(KeyBindings.bar.first?.name == "Help" && KeyBindings.bar.last?.name == "Quit")
        for action in UserAction.allCases {
            #expect(KeyBindings.all.contains { $0.action == action }, "\(action) has no key")
        }
    }
}
