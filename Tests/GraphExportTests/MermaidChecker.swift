/// A checker of the Mermaid subset the exporter writes, by Mermaid's own rules for that subset:
/// the `flowchart` header, `%%` comments, `classDef`, `class`, `subgraph ID["title"]` / `end`,
/// node statements `ID["label"]`, edges `A --> B`, `A ==> B`, `A -.->|text| B`, and `linkStyle`.
/// Labels are double-quoted and may hold no raw `"`, `#` only as an entity code (`#quot;`,
/// `#35;`, ...), `<` only in `<br>`; ids are plain words and not keywords. It returns the errors
/// (empty: valid) and the decoded labels, so that tests can compare them with the names.
struct MermaidChecker {
    struct Result {
        var errors: [String] = []
        /// Node id → label, decoded (entity codes replaced, `<br>` as a line break).
        var labels: [String: String] = [:]
        /// Subgraph id → title, decoded.
        var titles: [String: String] = [:]
        /// Node id → the subgraph it was declared in.
        var parent: [String: String] = [:]
        /// Edges as (from, arrow, to).
        var edges: [(String, String, String)] = []
        /// Class name → node ids.
        var classes: [String: [String]] = [:]
    }

    static let keywords: Set<String> = ["end", "subgraph", "graph", "flowchart", "class", "classDef", "style", "linkStyle",
                                        "click", "call", "href", "direction", "default"]
    static let arrows = ["-.->", "-->", "==>"]

    static func check(_ text: String) -> Result {
        var result = Result()
        var defined: Set<String> = []
        var stack: [String] = []
        var sawHeader = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (number, raw) in lines.enumerated() {
            func fail(_ message: String) { result.errors.append("line \(number + 1): \(message): \(raw)") }
            let line = raw.trimmingLeadingSpaces()
            if line.isEmpty || line.hasPrefix("%%") { continue }
            if !sawHeader {
                if line == "flowchart LR" { sawHeader = true } else { fail("the first statement must be 'flowchart LR'") }
                continue
            }
            let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            switch words[0] {
            case "classDef":
                guard words.count == 3, isID(words[1]), isStyle(words[2]) else { fail("classDef NAME STYLES"); continue }
                defined.insert(words[1])
            case "class":
                guard words.count == 3, defined.contains(words[2]) else { fail("class IDS NAME (a defined class)"); continue }
                for id in words[1].split(separator: ",").map(String.init) {
                    if result.labels[id] == nil { fail("class names an undeclared node \(id)") }
                    result.classes[words[2], default: []].append(id)
                }
            case "linkStyle":
                guard words.count == 3, isStyle(words[2]) else { fail("linkStyle INDEXES STYLES"); continue }
                for index in words[1].split(separator: ",") where Int(index).map({ $0 >= result.edges.count || $0 < 0 }) ?? true {
                    fail("linkStyle index \(index) is not an edge")
                }
            case "subgraph":
                guard words.count >= 2, let (id, title) = quotedStatement(String(line.dropFirst("subgraph ".count))) else {
                    fail("subgraph ID[\"title\"]")
                    continue
                }
                guard let decoded = decode(title, fail) else { continue }
                result.titles[id] = decoded
                stack.append(id)
            case "end":
                guard words.count == 1, stack.popLast() != nil else { fail("end without subgraph"); continue }
            default:
                if let edge = edgeStatement(line) {
                    guard let edge else { fail("edge: ID ARROW[|text|] ID"); continue }
                    // An edge to a word is legal Mermaid, but it would declare a new node: here, a mistake.
                    for id in [edge.0, edge.2] where result.labels[id] == nil { fail("edge to undeclared node \(id)") }
                    result.edges.append(edge)
                } else if let (id, label) = quotedStatement(line) {
                    guard let decoded = decode(label, fail) else { continue }
                    if result.labels[id] != nil { fail("node \(id) declared twice") }
                    result.labels[id] = decoded
                    if let parent = stack.last { result.parent[id] = parent }
                } else {
                    fail("not a statement of the subset")
                }
            }
        }
        if !sawHeader { result.errors.append("no flowchart header") }
        if !stack.isEmpty { result.errors.append("subgraph \(stack.last!) not closed") }
        return result
    }

    /// nil: not an edge; .some(nil): an edge written wrong; else (from, arrow with its text, to).
    static func edgeStatement(_ line: String) -> (String, String, String)?? {
        guard let space = line.firstIndex(of: " ") else { return nil }
        let from = String(line[..<space])
        let rest = line[line.index(after: space)...]
        guard let arrow = arrows.first(where: { rest.hasPrefix($0) }) else { return nil }
        var tail = rest.dropFirst(arrow.count)
        var written = arrow
        if tail.first == "|" {
            guard let close = tail.dropFirst().firstIndex(of: "|") else { return .some(nil) }
            let text = tail[tail.index(after: tail.startIndex)..<close]
            // Edge text is plain here: no quotes, pipes or entity codes to get wrong.
            guard !text.isEmpty, !text.contains(where: { "\"#<>`".contains($0) }) else { return .some(nil) }
            written += "|" + text + "|"
            tail = tail[tail.index(after: close)...]
        }
        guard tail.first == " ", isID(String(tail.dropFirst())), isID(from) else { return .some(nil) }
        return (from, written, String(tail.dropFirst()))
    }

    static func isID(_ word: String) -> Bool {
        guard let first = word.first, first.isASCII, first.isLetter, !keywords.contains(word) else { return false }
        return word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    static func isStyle(_ word: String) -> Bool {
        !word.isEmpty && word.split(separator: ",").allSatisfy { part in
            let pieces = part.split(separator: ":")
            return pieces.count == 2 && pieces.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "#-.".contains($0)) } }
        }
    }

    /// `ID["text"]` with nothing after the closing quote and bracket.
    static func quotedStatement(_ text: String) -> (String, String)? {
        guard let open = text.firstIndex(of: "["), text.hasSuffix("\"]") else { return nil }
        let id = String(text[..<open])
        let inner = text[text.index(after: open)...].dropLast()
        guard isID(id), inner.count >= 2, inner.first == "\"", inner.last == "\"" else { return nil }
        return (id, String(inner.dropFirst().dropLast()))
    }

    /// Decodes a label; nil (after failing) when it holds what Mermaid would misread.
    static func decode(_ label: String, _ fail: (String) -> Void) -> String? {
        if label.contains("\"") { fail("raw \" in a label"); return nil }
        var result = ""
        var rest = Substring(label)
        let named = ["quot": "\"", "amp": "&", "lt": "<", "gt": ">"]
        while let character = rest.first {
            if character == "#" {
                guard let end = rest.firstIndex(of: ";") else { fail("# outside an entity code"); return nil }
                let name = String(rest[rest.index(after: rest.startIndex)..<end])
                if let value = named[name] {
                    result += value
                } else if let code = UInt32(name), let scalar = Unicode.Scalar(code) {
                    result.unicodeScalars.append(scalar)
                } else {
                    fail("unknown entity #\(name);")
                    return nil
                }
                rest = rest[rest.index(after: end)...]
            } else if character == "<" {
                guard rest.hasPrefix("<br>") else { fail("markup other than <br> in a label"); return nil }
                result += "\n"
                rest = rest.dropFirst(4)
            } else if character == "`" || character == ">" || character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                fail("raw \(character.unicodeScalars.first!.escaped(asASCII: true)) in a label")
                return nil
            } else {
                result.append(character)
                rest = rest.dropFirst()
            }
        }
        return result
    }
}

extension String {
    func trimmingLeadingSpaces() -> String { String(drop { $0 == " " }) }
}
