import DashboardModel
import OperationEvents

/// The `:` command line: parses what was typed into a bridge command, or says precisely what is
/// wrong. Nothing is sent on an error.
public enum CommandPrompt {
    /// What a line asks for.
    public enum Outcome: Sendable, Equatable {
        /// A command to send, with a summary for the status line.
        case command(MonitorCommand, summary: String)
        /// `:quit`.
        case quit
        /// `:help`.
        case help
    }

    /// The forms, for the help overlay and error messages.
    public static let usage = [
        ":add TEMPLATE [xN] [after ID,...] [qos=CLASS] [priority=LEVEL]",
        ":cancel ID[,ID...]   :suspend [QUEUE]   :resume [QUEUE]   :max N [QUEUE]   :quit",
        "QUEUE: 2, q2 or the queue's name (default: the selected queue)",
        ":seek TIME   in a replay: 12.5s, 1:30, 800ms, or +5s / -2s from the moment shown",
    ]

    /// Longest line accepted (typing stops there).
    public static let maximumLength = 256

    /// Whether `line` (without the leading `:`) names a command that goes to the program, right
    /// or wrong: a source that takes no commands answers those with its reason, not with a
    /// complaint about the line's template or ids.
    public static func sendsCommand(_ line: String) -> Bool {
        let verb = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map { $0.lowercased() }
        return ["add", "a", "cancel", "c", "suspend", "resume", "max"].contains(verb ?? "")
    }

    /// Parses `line` (without the leading `:`). `queue` is the selected queue for queue
    /// commands; ids are checked against `model`, templates against `templates`.
    public static func parse(_ line: String, model: DashboardModel, templates: [WorkTemplateInfo],
                             queue: QueueID?) -> Result<Outcome, ParseError> {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first?.lowercased() else { return .failure(ParseError("type a command, e.g. \(usage[0])")) }
        let arguments = Array(words.dropFirst())
        switch verb {
        case "add", "a":
            return parseAdd(arguments, model: model, templates: templates).map { request in
                let summary = "add \(request.count) × \(request.template)"
                    + (request.dependencies.isEmpty ? "" : " after \(request.dependencies.map(\.description).joined(separator: ","))")
                return .command(.addWork(request), summary: summary)
            }
        case "cancel", "c":
            guard arguments.count == 1 else { return .failure(ParseError("usage: :cancel ID[,ID...] (ids joined by commas, no spaces)")) }
            return parseIDs(arguments[0], model: model).map { ids in
                .command(.cancel(operations: ids), summary: "cancel \(ids.map(\.description).joined(separator: ","))")
            }
        case "suspend", "resume":
            return parseQueue(arguments, verb: verb, model: model, selected: queue).flatMap { target in
                // A tracked (sampled) queue takes these too; the program refuses them on the main
                // queue, whose setters Foundation ignores, and says so.
                guard let record = model.queues[target] else { return .failure(ParseError("there is no queue \(target)")) }
                guard record.isSuspended != (verb == "suspend") else {
                    return .failure(ParseError("\(target) '\(record.name)' is already \(record.isSuspended ? "suspended" : "running")"))
                }
                return .success(.command(.setSuspended(queue: target, suspended: verb == "suspend"), summary: "\(verb) \(target) '\(record.name)'"))
            }
        case "max":
            guard let first = arguments.first, let count = Int(first), count == -1 || (1...10_000).contains(count) else {
                return .failure(ParseError("usage: :max N [QUEUE] (N: 1...10000, or -1 for no limit)"))
            }
            return parseQueue(Array(arguments.dropFirst()), verb: "max", model: model, selected: queue).flatMap { target in
                // A tracked (sampled) queue takes these too; the program refuses them on the main
                // queue, whose setters Foundation ignores, and says so.
                guard let record = model.queues[target] else { return .failure(ParseError("there is no queue \(target)")) }
                return .success(.command(.setMaxConcurrency(queue: target, count: count),
                                         summary: "max concurrency of \(target) '\(record.name)' → \(count < 0 ? "no limit" : String(count))"))
            }
        case "quit", "q":
            guard arguments.isEmpty else { return .failure(ParseError(":quit takes nothing after it")) }
            return .success(.quit)
        case "help", "h":
            guard arguments.isEmpty else { return .failure(ParseError(":help takes nothing after it")) }
            return .success(.help)
        default:
            return .failure(ParseError("unknown command '\(printable(verb))': try \(usage[0])"))
        }
    }

    private static func parseAdd(_ arguments: [String], model: DashboardModel,
                                 templates: [WorkTemplateInfo]) -> Result<WorkRequest, ParseError> {
        guard let name = arguments.first else { return .failure(ParseError("usage: \(usage[0])")) }
        guard let template = templates.first(where: { $0.name == name }) else {
            let known = templates.map(\.name).joined(separator: ", ")
            return .failure(ParseError("unknown template '\(printable(name))'" + (known.isEmpty ? ": this program registered none" : "; known: \(known)")))
        }
        var request = WorkRequest(template: template.name, queue: template.queue)
        // Each option once: `x3 x4` is a mistake to point out, not a choice to make silently.
        var seen: [String: String] = [:]
        func once(_ option: String, _ word: String) -> ParseError? {
            if let earlier = seen[option] { return ParseError("\(option) given twice ('\(printable(earlier))' and '\(printable(word))'): give it once") }
            seen[option] = word
            return nil
        }
        var index = 1
        while index < arguments.count {
            let word = arguments[index]
            if word.hasPrefix("x") || word.hasPrefix("×") {
                guard let count = Int(word.dropFirst()), (1...WorkRequest.maximumCount).contains(count) else {
                    return .failure(ParseError("bad count '\(printable(word))': use x1 ... x\(WorkRequest.maximumCount)"))
                }
                if let error = once("the count", word) { return .failure(error) }
                request.count = count
            } else if word == "after" {
                index += 1
                guard index < arguments.count else { return .failure(ParseError("'after' needs ids, e.g. after 12,14")) }
                if let error = once("'after'", "after " + arguments[index]) { return .failure(error) }
                switch parseIDs(arguments[index], model: model) {
                case .success(let ids): request.dependencies = ids
                case .failure(let error): return .failure(error)
                }
            } else if let value = setting("qos", of: word) {
                guard let qos = QualityNames.qos(value) else {
                    return .failure(ParseError("bad qos '\(printable(value))': use \(QualityNames.qosHint)"))
                }
                if let error = once("qos", word) { return .failure(error) }
                request.qualityOfService = qos
            } else if let value = setting("priority", of: word) {
                guard let priority = QualityNames.priority(value) else {
                    return .failure(ParseError("bad priority '\(printable(value))': use \(QualityNames.priorityHint)"))
                }
                if let error = once("priority", word) { return .failure(error) }
                request.priority = priority
            } else {
                return .failure(ParseError("unexpected '\(printable(word))': \(usage[0])"))
            }
            index += 1
        }
        return .success(request)
    }

    /// The queue a queue command names: the selected one when nothing is given, else the rest
    /// of the line as `2`, `q2` or a queue's name (names may hold spaces; nothing else may
    /// follow).
    static func parseQueue(_ arguments: [String], verb: String, model: DashboardModel,
                           selected: QueueID?) -> Result<QueueID, ParseError> {
        guard !arguments.isEmpty else {
            guard let selected, model.queues[selected] != nil else {
                return .failure(ParseError("no queue selected: name one (:\(verb) \(verb == "max" ? "N " : "")q2), or Tab to the queues and pick one"))
            }
            return .success(selected)
        }
        let text = arguments.joined(separator: " ")
        let number = Int(text.lowercased().hasPrefix("q") ? String(text.dropFirst()) : text)
        if let number, model.queues[QueueID(number)] != nil { return .success(QueueID(number)) }
        let named = model.queues.values.filter { $0.name == text }
        let loosely = named.isEmpty ? model.queues.values.filter { $0.name.lowercased() == text.lowercased() } : named
        if loosely.count == 1 { return .success(loosely[0].id) }
        let known = model.queues.values.sorted { $0.id < $1.id }.prefix(6).map { "\($0.id) \($0.name)" }.joined(separator: ", ")
        if loosely.count > 1 { return .failure(ParseError("several queues are called '\(printable(text))': use the number (\(known))")) }
        return .failure(ParseError("no queue '\(printable(text))': give one queue as 2, q2 or its name (\(known))"))
    }

    /// `12,#14` → ids that the model holds and that have not finished.
    static func parseIDs(_ text: String, model: DashboardModel) -> Result<[OperationID], ParseError> {
        var ids: [OperationID] = []
        for part in text.split(separator: ",") {
            let digits = part.hasPrefix("#") ? part.dropFirst() : part[...]
            guard let value = Int(digits), value >= 0 else {
                return .failure(ParseError("bad id '\(printable(String(part)))': ids are numbers like 12 or #12"))
            }
            let id = OperationID(value)
            guard let record = model.operations[id] else {
                return .failure(ParseError("no operation \(id): unknown, or released and forgotten"))
            }
            guard record.state != .finished else { return .failure(ParseError("\(id) has already finished")) }
            ids.append(id)
        }
        guard !ids.isEmpty else { return .failure(ParseError("no ids given")) }
        return .success(ids)
    }

    /// Text safe to echo: control characters shown as `?`, at most 40 characters.
    /// The value of `name=value` (the name in any case), nil for any other word.
    private static func setting(_ name: String, of word: String) -> String? {
        guard word.lowercased().hasPrefix(name + "=") else { return nil }
        return String(word.dropFirst(name.count + 1))
    }

    static func printable(_ text: String) -> String {
        let cleaned = String(text.map { $0.isASCII && ($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F) ? "?" : $0 })
        return cleaned.count > 40 ? String(cleaned.prefix(39)) + "…" : cleaned
    }

    /// Why a line was refused.
    public struct ParseError: Error, Sendable, Equatable {
        /// What is wrong, in one line.
        public var message: String
        init(_ message: String) { self.message = message }
    }
}

/// The parser's former name, still used by `FilterQuery`'s messages: remove it once they say
/// `CommandPrompt`.
typealias CommandLineParser = CommandPrompt
