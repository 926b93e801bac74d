/// The fields the format knows, each with one type wherever it appears.
enum FieldKey: Sendable, CaseIterable {
    case kind, sequence, time, origin, change, queue, operation, dependency, name, typeName
    case maxConcurrentOperationCount, isSuspended, qualityOfService, isMainQueue, observation, operations
    case priority, effectivePriority, priorityIsExplicit, isAsynchronous, isBarrier, dependencies
    case isReady, isExecuting, isCancelled, state, count, events, dropped, reason
    case format, version, program, processID, host, startedAt, startMonitorTime

    /// Each key with its name in a line: the case's own name, so that a new field is one case.
    static let table: [([UInt8], FieldKey)] = allCases.map { (Array(String(describing: $0).utf8), $0) }

    /// The table spread over buckets by a hash of the key's length and three of its bytes, so a
    /// lookup compares one candidate (a linear scan over keys of the same length was the
    /// decoder's largest cost).
    private static let buckets: [[([UInt8], FieldKey)]] = {
        var buckets = Array(repeating: [([UInt8], FieldKey)](), count: 256)
        for entry in table {
            entry.0.withUnsafeBufferPointer { buckets[bucket($0)].append(entry) }
        }
        return buckets
    }()

    @inline(__always) private static func bucket(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let first = bytes.first, let last = bytes.last else { return 0 }
        let middle = bytes[bytes.count / 2]
        return (bytes.count &* 7 &+ Int(first) &* 3 &+ Int(middle) &* 5 &+ Int(last)) & 255
    }

    @inline(__always) private static func equal(_ name: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == bytes.count else { return false }
        var index = 0
        while index < bytes.count {
            if name[index] != bytes[index] { return false }
            index += 1
        }
        return true
    }

    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> FieldKey? {
        // Indices, not a for-in: an unoptimised build (the tests') asks the runtime for the
        // iterator's generic type on every call, a lock there (a system call each under
        // ThreadSanitizer), once per field of every line read.
        let candidates = buckets[bucket(bytes)]
        var index = 0
        while index < candidates.count {
            if Self.equal(candidates[index].0, bytes) { return candidates[index].1 }
            index += 1
        }
        return nil
    }
}

/// One line's top-level object, read in one pass into typed slots.
///
/// A field of the wrong type does not stop the pass: the first such problem is kept in
/// `fieldError` and the value skipped, so that a header of a newer version is still recognised
/// as such (its `version` is read even if other fields changed), and a line of an unknown kind
/// is skipped whatever its fields hold. Broken JSON does stop it.
struct LineFields {
    var kind: StringSlot?
    /// Whether the line has a `kind` field at all (it may be of the wrong type).
    var hasKind = false
    var sequence: UInt64?, time: UInt64?, startMonitorTime: UInt64?
    var origin: StringSlot?, change: StringSlot?, qualityOfService: StringSlot?, observation: StringSlot?
    var priority: StringSlot?, effectivePriority: StringSlot?, format: StringSlot?
    var name: StringSlot?, typeName: StringSlot?, program: StringSlot?, host: StringSlot?
    var startedAt: StringSlot?, reason: StringSlot?
    var queue: Int?, operation: Int?, dependency: Int?, maxConcurrentOperationCount: Int?, operations: Int?
    var processID: Int?, version: Int?, count: Int?, events: Int?, dropped: Int?
    var isSuspended: Bool?, isMainQueue: Bool?, priorityIsExplicit: Bool?, isAsynchronous: Bool?
    var isBarrier: Bool?, isReady: Bool?, isExecuting: Bool?, isCancelled: Bool?
    var dependencies: [Int]?
    var state: Range<Int>?
    /// The first field of the wrong type, if any.
    var fieldError: LineDecodingError?
    /// The line, to read strings from once it is known which are needed.
    let scanner: JSONScanner
    /// What the line is, once known, for messages (`the "started" event has no "operation"`).
    /// Kept as a value and spelled out only for an error: formatting it for every line cost
    /// as much as decoding the rest.
    var subject = Subject.line

    enum Subject { case line, header, keyframe, dropped, end, event(StringSlot?) }

    /// Reads the object that must make up the whole line.
    init(_ scanner: inout JSONScanner) throws(LineDecodingError) {
        self.scanner = scanner
        scanner.skipWhitespace()
        guard scanner.current == UInt8(ascii: "{"), !scanner.atEnd else {
            throw scanner.syntax("a line must be one JSON object, found \(scanner.found)")
        }
        scanner.index += 1
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "}") {
            scanner.index += 1
        } else {
            while true {
                scanner.skipWhitespace()
                let keySlot = try scanner.scanString()
                scanner.skipWhitespace()
                try scanner.expect(UInt8(ascii: ":"), "':' after a key")
                scanner.skipWhitespace()
                let key: FieldKey?
                if keySlot.escaped {
                    key = scanner.unescaped(keySlot).withUnsafeBufferPointer { FieldKey.lookup($0) }
                } else {
                    key = FieldKey.lookup(scanner.raw(keySlot))
                }
                if let key {
                    try read(key, named: keySlot, &scanner)
                } else {
                    try scanner.skipValue() // a field of a newer writer
                }
                scanner.skipWhitespace()
                if scanner.current == UInt8(ascii: ","), !scanner.atEnd {
                    scanner.index += 1
                    continue
                }
                try scanner.expect(UInt8(ascii: "}"), "',' or '}' after a field")
                break
            }
        }
        scanner.skipWhitespace()
        guard scanner.atEnd else { throw scanner.syntax("text after the object: \(scanner.found)") }
    }

    private mutating func read(_ key: FieldKey, named slot: StringSlot, _ scanner: inout JSONScanner)
        throws(LineDecodingError)
    {
        if try scanner.scanNull() { return } // null is the same as absent
        let start = scanner.index
        do {
            switch key {
            case .sequence: sequence = try unsigned(&scanner)
            case .time: time = try unsigned(&scanner)
            case .startMonitorTime: startMonitorTime = try unsigned(&scanner)
            case .kind:
                hasKind = true
                kind = try string(&scanner)
            case .origin: origin = try string(&scanner)
            case .change: change = try string(&scanner)
            case .qualityOfService: qualityOfService = try string(&scanner)
            case .observation: observation = try string(&scanner)
            case .priority: priority = try string(&scanner)
            case .effectivePriority: effectivePriority = try string(&scanner)
            case .format: format = try string(&scanner)
            case .name: name = try string(&scanner)
            case .typeName: typeName = try string(&scanner)
            case .program: program = try string(&scanner)
            case .host: host = try string(&scanner)
            case .startedAt: startedAt = try string(&scanner)
            case .reason: reason = try string(&scanner)
            case .queue: queue = try integer(&scanner)
            case .operation: operation = try integer(&scanner)
            case .dependency: dependency = try integer(&scanner)
            case .maxConcurrentOperationCount: maxConcurrentOperationCount = try integer(&scanner)
            case .operations: operations = try integer(&scanner)
            case .processID: processID = try integer(&scanner)
            case .version: version = try integer(&scanner)
            case .count: count = try integer(&scanner)
            case .events: events = try integer(&scanner)
            case .dropped: dropped = try integer(&scanner)
            case .isSuspended: isSuspended = try bool(&scanner)
            case .isMainQueue: isMainQueue = try bool(&scanner)
            case .priorityIsExplicit: priorityIsExplicit = try bool(&scanner)
            case .isAsynchronous: isAsynchronous = try bool(&scanner)
            case .isBarrier: isBarrier = try bool(&scanner)
            case .isReady: isReady = try bool(&scanner)
            case .isExecuting: isExecuting = try bool(&scanner)
            case .isCancelled: isCancelled = try bool(&scanner)
            case .dependencies: dependencies = try integers(&scanner)
            case .state:
                try scanner.skipValue()
                state = start ..< scanner.index
            }
        } catch let problem as FieldProblem {
            if fieldError == nil {
                fieldError = .corrupt("\"\(scanner.text(slot))\" \(problem.message)")
            }
            scanner.index = start
            try scanner.skipValue()
        } catch let error as LineDecodingError {
            throw error
        } catch {
            throw .corrupt("\(error)")
        }
    }

    /// A value of the wrong type or range for its field (the JSON itself may be fine).
    private struct FieldProblem: Error {
        var message: String
    }

    private func unsigned(_ scanner: inout JSONScanner) throws(any Error) -> UInt64 {
        switch try integerScan(&scanner, "an unsigned integer") {
        case .integer(true, let magnitude) where magnitude != 0: throw FieldProblem(message: "must not be negative")
        case .integer(_, let magnitude): return magnitude
        case .notInteger: throw FieldProblem(message: "must be an unsigned integer, found a fraction")
        case .outOfRange: throw FieldProblem(message: "is out of range (at most \(UInt64.max))")
        }
    }

    private func integer(_ scanner: inout JSONScanner) throws(any Error) -> Int {
        switch try integerScan(&scanner, "an integer") {
        case .integer(false, let magnitude) where magnitude <= UInt64(Int.max): return Int(magnitude)
        case .integer(true, let magnitude) where magnitude <= UInt64(Int.max) + 1: return Int(truncatingIfNeeded: 0 &- magnitude)
        case .integer, .outOfRange: throw FieldProblem(message: "is out of range (\(Int.min) to \(Int.max))")
        case .notInteger: throw FieldProblem(message: "must be an integer, found a fraction")
        }
    }

    private func integerScan(_ scanner: inout JSONScanner, _ what: String) throws(any Error) -> ScannedInteger {
        switch scanner.current {
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"): return try scanner.scanInteger()
        default: throw FieldProblem(message: "must be \(what), found \(scanner.valueType)")
        }
    }

    private func string(_ scanner: inout JSONScanner) throws(any Error) -> StringSlot {
        guard scanner.current == JSONText.quote else { throw FieldProblem(message: "must be a string, found \(scanner.valueType)") }
        return try scanner.scanString()
    }

    private func bool(_ scanner: inout JSONScanner) throws(any Error) -> Bool {
        guard let value = try scanner.scanBool() else {
            throw FieldProblem(message: "must be true or false, found \(scanner.valueType)")
        }
        return value
    }

    private func integers(_ scanner: inout JSONScanner) throws(any Error) -> [Int] {
        guard scanner.current == UInt8(ascii: "[") else {
            throw FieldProblem(message: "must be an array of integers, found \(scanner.valueType)")
        }
        scanner.index += 1
        var values: [Int] = []
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "]") {
            scanner.index += 1
            return values
        }
        while true {
            scanner.skipWhitespace()
            values.append(try integer(&scanner))
            scanner.skipWhitespace()
            if scanner.current == UInt8(ascii: ","), !scanner.atEnd {
                scanner.index += 1
            } else {
                try scanner.expect(UInt8(ascii: "]"), "',' or ']' in an array")
                return values
            }
        }
    }
}
