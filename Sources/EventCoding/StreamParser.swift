/// Decodes the lines of one stream in order, whatever carries them (a file, frames on a socket):
/// the first must be the header, and its errors become `EventStreamError`s naming the source
/// and the line.
public struct StreamParser: Sendable {
    /// The file path or connection name used in errors.
    public let source: String
    /// The stream's header, once its first line was read.
    public private(set) var header: StreamHeader?

    /// A parser for a stream that has not started yet.
    public init(source: String) {
        self.source = source
    }

    /// A parser for a stream whose header was already read (reading resumes in the middle).
    public init(source: String, header: StreamHeader) {
        self.source = source
        self.header = header
    }

    /// Decodes the next line of the stream (its bytes, without the line break).
    public mutating func parse(_ bytes: ArraySlice<UInt8>, at position: StreamPosition) throws(EventStreamError) -> StreamLine {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(EventStreamError) in try parse(buffer, at: position) }
        }
        return try result.get()
    }

    /// Decodes the next line of the stream (its bytes, without the line break).
    public mutating func parse(_ bytes: [UInt8], at position: StreamPosition) throws(EventStreamError) -> StreamLine {
        try parse(bytes[...], at: position)
    }

    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>, at position: StreamPosition) throws(EventStreamError) -> StreamLine {
        func failure(_ kind: EventStreamError.Kind) -> EventStreamError {
            EventStreamError(source: source, line: position.line, offset: position.offset, kind: kind)
        }
        guard header == nil else {
            do throws(LineDecodingError) {
                let line = try StreamLine.decode(bytes)
                if case .header = line {
                    throw LineDecodingError.corrupt("a second header (two streams joined together?)")
                }
                return line
            } catch {
                switch error.problem {
                case .newerVersion, .corruptHeader, .notAHeader:
                    throw failure(.corruptLine("a second header (two streams joined together?)"))
                case .corrupt:
                    throw failure(.corruptLine(error.description))
                }
            }
        }
        let line: StreamLine
        do throws(LineDecodingError) {
            line = try StreamLine.decode(bytes)
        } catch {
            switch error.problem {
            case .notAHeader(let reason): throw failure(.notAnOpScopeStream("the first line is not a header: " + reason))
            case .newerVersion(let version): throw failure(.newerVersion(version))
            case .corruptHeader: throw failure(.corruptLine("header: " + error.description))
            case .corrupt: throw failure(.notAnOpScopeStream("the first line is not a header: " + error.description))
            }
        }
        guard case .header(let header) = line else {
            throw failure(.notAnOpScopeStream("the first line is \"\(line.kind)\", not the header"))
        }
        self.header = header
        return line
    }
}
