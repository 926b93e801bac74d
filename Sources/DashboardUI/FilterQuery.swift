import DashboardModel
import OperationEvents

/// The `/` filter, parsed once and matched against records in place.
///
/// Syntax: words separated by spaces, all of which must match (AND). A word is either free text
/// (found in the name, the type or the queue's name, a state's name, or the id's digits) or
/// `key:value` with key `state`, `queue`, `qos`, `name`, `type`, `id` or `why`. `a|b` (or `a,b`)
/// in a value means either. `!` before a word negates it. Letters match in any case.
/// Examples: `download`, `state:ready|executing`, `!state:finished queue:net`, `why:cycle`.
public struct FilterQuery: Sendable, Equatable {
    /// One word of the filter.
    struct Term: Sendable, Equatable {
        var negated: Bool
        var key: Key
        /// The alternatives, lowercased.
        var values: [String]
    }

    /// What a word looks at.
    enum Key: String, Sendable, CaseIterable {
        case text, state, queue, qos, name, type, id, why
    }

    /// The words, in order.
    let terms: [Term]
    /// The text it was parsed from.
    public let text: String

    /// True when it lets every operation through.
    public var isEmpty: Bool { terms.isEmpty }

    /// True when matching needs the model's diagnoses (`why:`).
    var needsDiagnoses: Bool { terms.contains { $0.key == .why } }

    /// Why a filter was refused.
    public struct ParseError: Error, Sendable, Equatable {
        /// One line naming the word and what is accepted.
        public var message: String
    }

    /// The keys, for messages and help.
    public static let keysHint = "state: queue: qos: name: type: id: why:"

    /// Parses `text`; an unknown key or value is an error that names it.
    public static func parse(_ text: String) -> Result<FilterQuery, ParseError> {
        var terms: [Term] = []
        for word in text.lowercased().split(separator: " ") {
            var word = Substring(word)
            let negated = word.hasPrefix("!")
            if negated { word = word.dropFirst() }
            if word.isEmpty { continue }
            var key = Key.text
            var value = word
            if let colon = word.firstIndex(of: ":") {
                let name = String(word[..<colon])
                guard let known = Key(rawValue: name), known != .text else {
                    return .failure(ParseError(message: "unknown filter key '\(CommandLineParser.printable(name))': use \(keysHint) (or plain words)"))
                }
                key = known
                value = word[word.index(after: colon)...]
            } else if word.hasPrefix("#"), word.count > 1, word.dropFirst().allSatisfy(\.isNumber) {
                // `#12` is that operation, as everywhere else on the screen.
                key = .id
                value = word.dropFirst()
            }
            let values = value.split(whereSeparator: { $0 == "|" || $0 == "," }).map(String.init)
            // A key with no value yet (`state:` while typing) lets everything through.
            if values.isEmpty { continue }
            for value in values {
                if let problem = check(key, value) { return .failure(ParseError(message: problem)) }
            }
            terms.append(Term(negated: negated, key: key, values: values))
        }
        return .success(FilterQuery(terms: terms, text: text))
    }

    /// The state names `state:` accepts (by prefix).
    static let stateNames = ["pending", "ready", "executing", "finished", "cancelled", "live"]

    /// The reasons `why:` accepts, and the diagnosis kinds each names: the waits that go on by
    /// themselves, then the stuck causes' own words (`StuckCause.filterWords`), `stuck` (the
    /// model's `stuckOperations`), and each kind by its name.
    static let reasons: [(String, [Diagnosis.Kind])] = [
        ("deps", [.waitingOnDependencies]), ("dependencies", [.waitingOnDependencies]),
        ("limit", [.concurrencyLimit]), ("slot", [.concurrencyLimit]),
        ("turn", [.waitingForTurn]), ("next", [.waitingForTurn]), ("cancelled", [.cancelledWaitingForSlot]),
    ] + stuckCauseReasons + [("stuck", [])] + Diagnosis.Kind.allCases.map { ($0.rawValue.lowercased(), [$0]) }

    /// Each word of `StuckCause.filterWords`, in the causes' order, with the kinds whose cause lists it.
    private static var stuckCauseReasons: [(String, [Diagnosis.Kind])] {
        var words: [String] = []
        for cause in StuckCause.allCases {
            for word in cause.filterWords where !words.contains(word) { words.append(word) }
        }
        return words.map { word in (word, Diagnosis.Kind.allCases.filter { $0.stuckCause?.filterWords.contains(word) == true }) }
    }

    /// The reasons `why:` names to people (the help and a refused value list the same ones),
    /// leaving out the synonyms and the diagnosis kinds' own names.
    static let reasonsHint = ["deps", "suspended", "limit", "turn", "noqueue", "cycle", "cancelled", "notready", "condition", "notstarted", "stuck"]

    private static func check(_ key: Key, _ value: String) -> String? {
        switch key {
        case .state:
            guard stateNames.contains(where: { $0.hasPrefix(value) }) else {
                return "no state '\(CommandLineParser.printable(value))': use pending, ready, executing, finished, cancelled, live"
            }
        case .qos:
            guard QualityNames.qos(value) != nil || QoSClass.allCases.contains(where: { $0.rawValue.lowercased().hasPrefix(value) }) else {
                return "no qos '\(CommandLineParser.printable(value))': use \(QualityNames.qosHint)"
            }
        case .why:
            guard reasons.contains(where: { $0.0 == value }) else {
                return "no reason '\(CommandLineParser.printable(value))': use " + reasonsHint.joined(separator: ", ")
            }
        case .id:
            let digits = value.hasPrefix("#") ? value.dropFirst() : Substring(value)
            guard Int(digits) != nil else { return "bad id '\(CommandLineParser.printable(value))': ids are numbers like 12" }
        case .text, .queue, .name, .type:
            break
        }
        return nil
    }

    /// True when every operation `other` lets through, this query lets through too, and this
    /// one only narrows it: then matching this one over `other`'s result is enough. Conservative:
    /// only the same words, more words, or the last word typed further in a way that narrows.
    func narrows(_ other: FilterQuery) -> Bool {
        guard terms.count >= other.terms.count else { return false }
        for (index, old) in other.terms.enumerated() {
            let new = terms[index]
            if new == old { continue }
            // Only the last word may differ, and only by being typed further.
            guard index == other.terms.count - 1, !old.negated, !new.negated, old.key == new.key,
                  old.values.count == 1, new.values.count == 1, new.values[0].hasPrefix(old.values[0]) else { return false }
            switch old.key {
            case .text, .name, .type, .queue, .state: continue
            case .qos, .id, .why: return false
            }
        }
        return true
    }
}

extension FilterQuery {
    /// A query bound to one model: queue names, states and reasons worked out once, so that
    /// matching an operation reads a few of its fields and allocates nothing.
    struct Matcher {
        private let terms: [Compiled]
        private let diagnoses: [OperationID: Diagnosis.Kind]
        private let stuck: Set<OperationID>

        private struct Compiled {
            var negated: Bool
            var alternatives: [Alternative]
        }

        private enum Alternative {
            /// Free text: name, type, queue, state or id digits.
            case text(needle: [UInt8], queues: Set<QueueID>, states: StateSet)
            case states(StateSet)
            case queues(Set<QueueID>)
            case qos(QoSClass)
            case qosPrefix([UInt8])
            case name([UInt8])
            case type([UInt8])
            case id(Int)
            case why([Diagnosis.Kind])
            case stuck
        }

        init(_ query: FilterQuery, model: DashboardModel) {
            var needsStuck = false
            terms = query.terms.map { term in
                Compiled(negated: term.negated, alternatives: term.values.map { value in
                    let bytes = Array(value.utf8)
                    switch term.key {
                    case .text:
                        return .text(needle: bytes, queues: Self.queues(model, containing: value, byID: false),
                                     states: StateSet(prefix: value))
                    case .state: return .states(StateSet(prefix: value))
                    case .queue: return .queues(Self.queues(model, containing: value, byID: true))
                    case .qos:
                        if let qos = QualityNames.qos(value) { return .qos(qos) }
                        return .qosPrefix(bytes)
                    case .name: return .name(bytes)
                    case .type: return .type(bytes)
                    case .id: return .id(Int(value.hasPrefix("#") ? value.dropFirst() : Substring(value)) ?? -1)
                    case .why:
                        let kinds = FilterQuery.reasons.first { $0.0 == value }?.1 ?? []
                        if kinds.isEmpty { needsStuck = true; return .stuck }
                        return .why(kinds)
                    }
                })
            }
            if query.needsDiagnoses {
                var table: [OperationID: Diagnosis.Kind] = [:]
                for diagnosis in model.diagnoses() { table[diagnosis.operation] = diagnosis.kind }
                diagnoses = table
            } else {
                diagnoses = [:]
            }
            stuck = needsStuck ? model.stuckOperations() : []
        }

        /// Queues whose name contains `text` (and, `byID`, the one named `q2` or `2`).
        private static func queues(_ model: DashboardModel, containing text: String, byID: Bool) -> Set<QueueID> {
            var result: Set<QueueID> = []
            let number = Int(text.hasPrefix("q") ? String(text.dropFirst()) : text)
            for queue in model.queues.values {
                if byID, let number, queue.id.rawValue == number { result.insert(queue.id) }
                if queue.name.lowercased().contains(text) { result.insert(queue.id) }
            }
            return result
        }

        /// True when the record passes every word.
        func matches(_ record: UnsafePointer<OperationRecord>) -> Bool {
            for term in terms {
                var any = false
                for alternative in term.alternatives where matches(alternative, record) {
                    any = true
                    break
                }
                if any == term.negated { return false }
            }
            return true
        }

        private func matches(_ alternative: Alternative, _ record: UnsafePointer<OperationRecord>) -> Bool {
            switch alternative {
            case .text(let needle, let queues, let states):
                if states.contains(record.pointee.state, cancelled: record.pointee.isCancelled) { return true }
                if let queue = record.pointee.queue, queues.contains(queue) { return true }
                if Self.contains(record.pointee.name ?? "", needle) || Self.contains(record.pointee.typeName, needle) { return true }
                return Self.contains(String(record.pointee.id.rawValue), needle)
            case .states(let states): return states.contains(record.pointee.state, cancelled: record.pointee.isCancelled)
            case .queues(let queues): return record.pointee.queue.map(queues.contains) ?? false
            case .qos(let qos): return record.pointee.qualityOfService == qos
            case .qosPrefix(let prefix): return Self.hasPrefix(record.pointee.qualityOfService.rawValue, prefix)
            case .name(let needle): return Self.contains(record.pointee.name ?? record.pointee.typeName, needle)
            case .type(let needle): return Self.contains(record.pointee.typeName, needle)
            case .id(let value): return record.pointee.id.rawValue == value
            case .why(let kinds): return diagnoses[record.pointee.id].map(kinds.contains) ?? false
            case .stuck: return stuck.contains(record.pointee.id)
            }
        }

        /// `needle` (lowercase ASCII bytes) in `text`, ASCII letters compared in any case, with
        /// no allocation: this runs for every operation on every frame while a filter is set.
        static func contains(_ text: String, _ needle: [UInt8]) -> Bool {
            if needle.isEmpty { return true }
            var text = text
            return text.withUTF8 { bytes in
                guard bytes.count >= needle.count else { return false }
                let first = needle[0]
                var start = 0
                while start <= bytes.count - needle.count {
                    if fold(bytes[start]) == first {
                        var offset = 1
                        while offset < needle.count, fold(bytes[start + offset]) == needle[offset] { offset += 1 }
                        if offset == needle.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }

        static func hasPrefix(_ text: String, _ prefix: [UInt8]) -> Bool {
            var text = text
            return text.withUTF8 { bytes in
                bytes.count >= prefix.count && zip(bytes, prefix).allSatisfy { fold($0) == $1 }
            }
        }

        @inline(__always) private static func fold(_ byte: UInt8) -> UInt8 {
            byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        }
    }

    /// States a word names by prefix (`re` → ready; `c` → cancelled; `live` → unfinished).
    struct StateSet: Sendable {
        private var bits: UInt8 = 0

        init(prefix: String) {
            guard !prefix.isEmpty else { return }
            for (index, name) in FilterQuery.stateNames.enumerated() where name.hasPrefix(prefix) { bits |= 1 << index }
        }

        func contains(_ state: OperationState, cancelled: Bool) -> Bool {
            guard bits != 0 else { return false }
            let index: Int = switch state {
            case .pending: 0
            case .ready: 1
            case .executing: 2
            case .finished: 3
            }
            if bits & (1 << index) != 0 { return true }
            if cancelled, bits & (1 << 4) != 0 { return true }
            return state != .finished && bits & (1 << 5) != 0
        }
    }
}
