import OperationEvents

/// The words a stream spells enum values with, in one place for writing and reading. They are the
/// Swift spellings, the same ones the JSON report uses (a test holds them to the enums' own).
struct Words<Value: Equatable>: Sendable where Value: Sendable {
    // Words and values apart: a lookup walks the words, an array of a type known when this is
    // compiled. Pairs of a word and a generic value made an unoptimised build (the tests') ask
    // the runtime for their types on every lookup, a lock there (a system call each under
    // ThreadSanitizer), once per word of every line read.
    private let words: [StaticString]
    private let values: [Value]

    init(entries: [(word: StaticString, value: Value)]) {
        words = entries.map(\.word)
        values = entries.map(\.value)
    }

    /// The word for `value` (every value has one: the tables are complete, which a test checks).
    func word(for value: Value) -> StaticString {
        guard let index = values.firstIndex(of: value) else { preconditionFailure("no word for \(value)") }
        return words[index]
    }

    /// The value spelled by `bytes`, or nil.
    func value(matching bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        var index = 0
        while index < words.count {
            if words[index].utf8CodeUnitCount == bytes.count, words[index].equals(bytes) { return values[index] }
            index += 1
        }
        return nil
    }

    /// Every word, for error messages.
    var list: String { words.map { "\($0)" }.joined(separator: ", ") }
}

/// The word tables of the format.
enum Vocabulary {
    /// The kinds of change, spelled as `MonitorEvent.Change.Kind` spells them.
    static let changes = Words<MonitorEvent.Change.Kind>(
        entries: MonitorEvent.Change.Kind.allCases.map { (word: $0.word, value: $0) })

    static let origins = Words<EventOrigin>(entries: [
        ("exact", .exact), ("sampled", .sampled), ("inferred", .inferred),
    ])

    static let qualities = Words<QoSClass>(entries: [
        ("background", .background), ("utility", .utility), ("default", .default),
        ("userInitiated", .userInitiated), ("userInteractive", .userInteractive),
    ])

    static let priorities = Words<OperationPriority>(entries: [
        ("veryLow", .veryLow), ("low", .low), ("normal", .normal), ("high", .high),
        ("veryHigh", .veryHigh), ("barrier", .barrier),
    ])

    static let operationObservations = Words<ObservationMode>(entries: [
        ("instrumented", .instrumented), ("hooked", .hooked), ("sampled", .sampled), ("external", .external),
    ])

    static let queueObservations = Words<QueueObservation>(entries: [
        ("observed", .observed), ("sampled", .sampled), ("reported", .reported),
    ])
}

extension StaticString {
    /// Whether `bytes` spell this text. Keys and words are a few bytes: compared in a loop here,
    /// as the generic `elementsEqual` and a `memcmp` call each cost more than the comparison.
    @inline(__always) func equals(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        withUTF8Buffer { word in
            guard word.count == bytes.count else { return false }
            for index in 0 ..< word.count where word[index] != bytes[index] { return false }
            return true
        }
    }
}
