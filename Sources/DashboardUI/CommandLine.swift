import DashboardModel
import OperationEvents

/// The `:` command line: parses what was typed into a bridge command, or says precisely what is
/// wrong. Nothing is sent on an error.
public enum CommandLineParser {
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
        ":cancel ID[,ID...]   :suspend   :resume   :max N   :quit",
    ]

    /// Longest line accepted (typing stops there).
    public static let maximumLength = 256

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
            guard arguments.count == 1 else { return .failure(ParseError("usage: :cancel ID[,ID...]")) }
            return parseIDs(arguments[0], model: model).map { ids in
                .command(.cancel(operations: ids), summary: "cancel \(ids.map(\.description).joined(separator: ","))")
            }
        case "suspend", "resume":
            guard let queue, model.queues[queue] != nil else { return .failure(ParseError("select an operation of the queue first")) }
            return .success(.command(.setSuspended(queue: queue, suspended: verb == "suspend"), summary: "\(verb) \(queue)"))
        case "max":
            guard let queue, model.queues[queue] != nil else { return .failure(ParseError("select an operation of the queue first")) }
            guard arguments.count == 1, let count = Int(arguments[0]), count == -1 || (1...10_000).contains(count) else {
                return .failure(ParseError("usage: :max N (1...10000, or -1 for no limit)"))
            }
            return .success(.command(.setMaxConcurrency(queue: queue, count: count), summary: "max concurrency of \(queue) → \(count)"))
        case "quit", "q":
            return .success(.quit)
        case "help", "h":
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
        var index = 1
        while index < arguments.count {
            let word = arguments[index]
            if word.hasPrefix("x") || word.hasPrefix("×") {
                guard let count = Int(word.dropFirst()), (1...WorkRequest.maximumCount).contains(count) else {
                    return .failure(ParseError("bad count '\(printable(word))': use x1 ... x\(WorkRequest.maximumCount)"))
                }
                request.count = count
            } else if word == "after" {
                index += 1
                guard index < arguments.count else { return .failure(ParseError("'after' needs ids, e.g. after 12,14")) }
                switch parseIDs(arguments[index], model: model) {
                case .success(let ids): request.dependencies = ids
                case .failure(let error): return .failure(error)
                }
            } else if word.hasPrefix("qos=") {
                guard let qos = QoSClass(parsing: String(word.dropFirst(4))) else {
                    return .failure(ParseError("bad qos '\(printable(String(word.dropFirst(4))))': use userInteractive, userInitiated, default, utility, background"))
                }
                request.qualityOfService = qos
            } else if word.hasPrefix("priority=") {
                guard let priority = OperationPriority(parsing: String(word.dropFirst(9))), priority != .barrier else {
                    return .failure(ParseError("bad priority '\(printable(String(word.dropFirst(9))))': use veryLow, low, normal, high, veryHigh"))
                }
                request.priority = priority
            } else {
                return .failure(ParseError("unexpected '\(printable(word))': \(usage[0])"))
            }
            index += 1
        }
        return .success(request)
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
