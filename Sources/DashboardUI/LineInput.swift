import TerminalKit
import OperationEvents

/// A line being typed at the bottom of the screen (`:` commands, `/` filter), with a cursor and
/// readline's few keys people expect: ← → Home End, Backspace and Delete, Ctrl-U, Ctrl-W, and ↑ ↓
/// through the lines entered before.
public struct LineInput: Sendable, Equatable {
    /// What the line is for.
    public enum Kind: Sendable, Equatable {
        /// A `:` command.
        case command
        /// The `/` filter (applied while it is typed, once per frame).
        case filter
        /// The find line (F3, Ctrl-F): the selection jumps to what matches, nothing is hidden.
        case search

        /// What is shown before the text.
        public var prompt: String {
            switch self {
            case .command: ":"
            case .filter: "/"
            case .search: "find: "
            }
        }
    }

    /// What the line is for.
    public var kind: Kind
    /// The characters typed.
    public private(set) var characters: [Character]
    /// Where the next character goes (0 ... count).
    public private(set) var cursor: Int
    /// The find line's starting point: the selection when it opened, where Esc goes back to.
    var origin: OperationID?
    /// While browsing the history: the entry shown (0 is the most recent).
    private var historyPosition: Int?
    /// The line as it was before browsing the history began (↓ past the newest returns to it).
    private var draft: [Character] = []

    /// A line of `kind` holding `text`, the cursor at its end.
    public init(_ kind: Kind, text: String = "") {
        self.kind = kind
        characters = Array(text)
        cursor = characters.count
    }

    /// The text typed so far.
    public var text: String { String(characters) }

    /// What an editing key did.
    public enum Edit: Sendable, Equatable {
        /// The text or the cursor changed.
        case changed
        /// The key is not an editing key.
        case ignored
        /// The line is full.
        case full
    }

    /// Applies an editing key. `history` is the list of earlier lines, most recent last.
    public mutating func edit(_ key: Key, history: [String], maximumLength: Int) -> Edit {
        switch key {
        case .character(let character):
            guard characters.count < maximumLength else { return .full }
            characters.insert(character, at: cursor)
            cursor += 1
        case .left, .control("b"): cursor = max(0, cursor - 1)
        case .right, .control("f"): cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .backspace:
            guard cursor > 0 else { return .changed }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete, .control("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .control("u"):
            characters.removeFirst(cursor)
            cursor = 0
        case .control("k"):
            characters.removeLast(characters.count - cursor)
        case .control("w"):
            // The word before the cursor, and the spaces after it (as readline does).
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .up: browse(history, by: 1)
        case .down: browse(history, by: -1)
        default: return .ignored
        }
        // Editing a line taken from the history makes it the new draft.
        if key != .up, key != .down { historyPosition = nil }
        return .changed
    }

    /// ↑ (older) and ↓ (newer) through the history; past the newest, the draft comes back.
    private mutating func browse(_ history: [String], by step: Int) {
        guard !history.isEmpty else { return }
        if historyPosition == nil {
            guard step > 0 else { return }
            draft = characters
        }
        let next = (historyPosition ?? -1) + step
        if next < 0 {
            historyPosition = nil
            characters = draft
        } else {
            let position = min(next, history.count - 1)
            historyPosition = position
            characters = Array(history[history.count - 1 - position])
        }
        cursor = characters.count
    }

    /// The part of the line that fits in `width` columns (after the prompt), scrolled so that
    /// the cursor is visible, and the cursor's column in it. `leftCut` and `rightCut` say
    /// whether text is hidden on either side.
    public func visible(width: Int) -> (text: String, cursor: Int, leftCut: Bool, rightCut: Bool) {
        guard width > 2 else { return ("", 0, false, false) }
        // One column stays free for the cursor after the last character.
        let room = width - 1
        var start = 0
        if cursor >= room { start = cursor - room + 1 }
        let end = min(characters.count, start + room)
        return (String(characters[start..<end]), cursor - start, start > 0, end < characters.count)
    }
}

/// Lines entered on the `:` and `/` lines, most recent last, without repeats in a row.
public struct LineHistory: Sendable, Equatable {
    /// Entered commands.
    public private(set) var commands: [String] = []
    /// Entered filters.
    public private(set) var filters: [String] = []
    /// Entered searches (the find line).
    public private(set) var searches: [String] = []
    /// Lines kept per kind.
    public static let limit = 50

    /// An empty history.
    public init() {}

    /// The lines of one kind.
    public func lines(_ kind: LineInput.Kind) -> [String] {
        switch kind {
        case .command: commands
        case .filter: filters
        case .search: searches
        }
    }

    /// Remembers an entered line (blank lines and a repeat of the last one are not kept).
    public mutating func add(_ line: String, _ kind: LineInput.Kind) {
        guard !line.allSatisfy({ $0 == " " }) else { return }
        func push(_ list: inout [String]) {
            if list.last == line { return }
            list.append(line)
            if list.count > Self.limit { list.removeFirst(list.count - Self.limit) }
        }
        switch kind {
        case .command: push(&commands)
        case .filter: push(&filters)
        case .search: push(&searches)
        }
    }
}
