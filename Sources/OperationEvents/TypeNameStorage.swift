/// How an `OperationInfo` keeps its class name: interned in `InternedTypeNames.shared` (what the
/// bridge reports: copying it retains nothing), or as a string (anything else: decoded,
/// assigned, or made when the table was full).
///
/// Equal when the names are equal, whichever way each is kept. Coded as the plain string.
@usableFromInline
package enum TypeNameStorage: Sendable, Equatable, Codable {
    case text(String)
    case interned(UInt32)

    /// `name` interned in the shared table, or kept as text when the table is full.
    package init(interning name: String) {
        self = InternedTypeNames.shared.intern(name).map { .interned($0) } ?? .text(name)
    }

    /// The name.
    @usableFromInline
    package var string: String {
        switch self {
        case .text(let name): name
        case .interned(let position): InternedTypeNames.shared.name(at: position)
        }
    }

    @usableFromInline
    package static func == (lhs: TypeNameStorage, rhs: TypeNameStorage) -> Bool {
        // Interning keeps one position per name, so two positions are equal only as names.
        if case .interned(let left) = lhs, case .interned(let right) = rhs { return left == right }
        return lhs.string == rhs.string
    }

    @usableFromInline
    package init(from decoder: any Decoder) throws {
        self = .text(try decoder.singleValueContainer().decode(String.self))
    }

    @usableFromInline
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }
}
