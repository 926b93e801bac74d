import Foundation

/// The whole state of a stream at one point, to start from instead of the events before it.
///
/// The state is any `Codable` value (the stream's `StreamState`), kept here as the JSON text of
/// its `state` field. A reader indexing a recording records where keyframes are without paying
/// for decoding them; `decodeState(as:)` decodes one when it is needed.
public struct Keyframe: Sendable, Equatable {
    /// Events with this sequence number and later follow the keyframe; earlier ones are in it.
    public var sequence: UInt64
    /// When the state was taken (monitor clock, nanoseconds).
    public var time: UInt64
    /// The state as one JSON value (UTF-8, no line breaks).
    public var stateJSON: [UInt8]

    /// Wraps a state that is already JSON: one value without raw line breaks, as `JSONEncoder`
    /// writes and the line decoder checks (not public so that no unchecked text gets into a line).
    package init(sequence: UInt64, time: UInt64, stateJSON: [UInt8]) {
        self.sequence = sequence
        self.time = time
        self.stateJSON = stateJSON
    }

    /// Encodes a state with `JSONEncoder` (keys sorted, so equal states give equal lines).
    public init(sequence: UInt64, time: UInt64, state: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.init(sequence: sequence, time: time, stateJSON: Array(try encoder.encode(state)))
    }

    /// Decodes the state with `JSONDecoder`.
    public func decodeState<State: Decodable>(as type: State.Type) throws -> State {
        try JSONDecoder().decode(State.self, from: Data(stateJSON))
    }
}
