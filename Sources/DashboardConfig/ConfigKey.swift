import DashboardSession
import DashboardUI
internal import TOMLKit

/// One key of the config file: its name, its type and values, its default, its meaning and the
/// flags that win over it. `ConfigKey.all` is the one table of them: the reader, the settings
/// it makes and docs/config.md's key table and example file all come from it.
public struct ConfigKey {
    /// The key as the file writes it (`hide_finished`).
    public let name: String
    /// The TOML type of its value: `boolean`, `integer` or `string`.
    public let type: String
    /// The values it takes, as the docs and the errors say them (`1 to 120`, `one of …`).
    public let values: String
    /// The built-in default, as the file would write it (`30`, `"overview"`).
    public let defaultValue: String
    /// Where a command's own default differs from it (narration: demos narrate).
    public let defaultNote: String?
    /// What it changes.
    public let meaning: String
    /// The command-line flags that win over it (none: the file alone sets it).
    public let flags: [String]
    /// Reads the key's value into `settings`; the problem with it, if any, as the error says it
    /// after `key = value: ` (`expected one of …`).
    let read: (any TOMLValueConvertible, inout DashboardSettings) -> String?
    /// Sets what `settings` holds for this key in `options`, if it holds anything.
    let apply: (DashboardSettings, inout SessionOptions) -> Void

    /// Every key, in the order the docs list them.
    public static var all: [ConfigKey] {
        [
            choice("view", \.view, \.initialView.screen, names: { $0.shortName.replacing(" ", with: "-") }, flags: [],
                   "The view the dashboard opens on (the digit keys switch views)."),
            choice("sort", \.sort, \.initialView.table.sort, names: { $0.title.lowercased() }, flags: [],
                   "The column the operations table is sorted by (`<` and `>` change it)."),
            boolean("sort_descending", \.sortDescending, \.initialView.table.descending, flags: [],
                    "Sort the table in descending order (`I` inverts it)."),
            boolean("hide_finished", \.hideFinished, \.initialView.table.hideFinished, flags: [],
                    "Leave finished operations out of the table (`H` toggles it)."),
            boolean("narration", \.narration, \.narration, flags: [],
                    "Narrate each state change in a line under the panes (`t` toggles it).",
                    defaultNote: "demos and replays narrate unless the file says `false`"),
            boolean("color", \.color, \.color, flags: ["--color", "--no-color"],
                    "Colours; without them states stay marked by symbols and attributes."),
            boolean("ascii", \.ascii, \.ascii, flags: ["--ascii", "--unicode"],
                    "Draw with ASCII only: no box drawing or symbols."),
            boolean("mouse", \.mouse, \.mouse, flags: ["--mouse", "--no-mouse"],
                    "Capture mouse clicks and the wheel; off, the terminal selects text."),
            integer("fps", \.fps, \.framesPerSecond, range: framesPerSecond, flags: ["--fps N"],
                    "At most this many frames per second."),
        ]
    }

    /// The frame rates `fps` and `--fps` take.
    public static let framesPerSecond = 1...120

    /// The key named `name`.
    public static func named(_ name: String) -> ConfigKey? { all.first { $0.name == name } }

    /// A key whose value is `true` or `false`.
    static func boolean(_ name: String, _ setting: WritableKeyPath<DashboardSettings, Bool?>,
                        _ option: WritableKeyPath<SessionOptions, Bool>, flags: [String], _ meaning: String,
                        defaultNote: String? = nil) -> ConfigKey {
        ConfigKey(name: name, type: "boolean", values: "true or false", defaultValue: "\(SessionOptions()[keyPath: option])",
                  defaultNote: defaultNote, meaning: meaning, flags: flags,
                  read: { node, settings in
                      guard let value = node.bool else { return expected("a boolean (true or false)", node) }
                      settings[keyPath: setting] = value
                      return nil
                  },
                  apply: { settings, options in settings[keyPath: setting].map { options[keyPath: option] = $0 } })
    }

    /// A key whose value is an integer in `range`.
    static func integer(_ name: String, _ setting: WritableKeyPath<DashboardSettings, Int?>,
                        _ option: WritableKeyPath<SessionOptions, Int>, range: ClosedRange<Int>, flags: [String],
                        _ meaning: String) -> ConfigKey {
        let values = "\(range.lowerBound) to \(range.upperBound)"
        return ConfigKey(name: name, type: "integer", values: values, defaultValue: "\(SessionOptions()[keyPath: option])",
                         defaultNote: nil, meaning: meaning, flags: flags,
                         read: { node, settings in
                             guard let value = node.int else { return expected("an integer from \(values)", node) }
                             guard range.contains(value) else { return "expected an integer from \(values)" }
                             settings[keyPath: setting] = value
                             return nil
                         },
                         apply: { settings, options in settings[keyPath: setting].map { options[keyPath: option] = $0 } })
    }

    /// A key whose value is the name of one of `Value`'s cases, as `names` gives them.
    static func choice<Value: CaseIterable & Equatable>(_ name: String, _ setting: WritableKeyPath<DashboardSettings, Value?>,
                                                        _ option: WritableKeyPath<SessionOptions, Value>,
                                                        names: (Value) -> String, flags: [String], _ meaning: String) -> ConfigKey {
        let cases = Array(Value.allCases)
        let words = cases.map(names)
        let values = "one of " + words.joined(separator: ", ")
        let standard = words[cases.firstIndex(of: SessionOptions()[keyPath: option]) ?? 0]
        return ConfigKey(name: name, type: "string", values: values, defaultValue: "\"\(standard)\"", defaultNote: nil,
                         meaning: meaning, flags: flags,
                         read: { node, settings in
                             guard let word = node.string else { return expected("a string, \(values)", node) }
                             guard let index = words.firstIndex(of: word) else { return "expected \(values)" }
                             settings[keyPath: setting] = cases[index]
                             return nil
                         },
                         apply: { settings, options in settings[keyPath: setting].map { options[keyPath: option] = $0 } })
    }

    /// "expected WANTED, got a float": for a value of the wrong type.
    private static func expected(_ wanted: String, _ node: any TOMLValueConvertible) -> String {
        "expected \(wanted), got \(TOMLText.kind(of: node))"
    }
}

extension SessionOptions {
    /// The config file's `ascii`, the opposite of `unicode`.
    var ascii: Bool {
        get { !unicode }
        set { unicode = !newValue }
    }
}
