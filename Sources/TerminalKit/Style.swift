/// A terminal colour. Backends map it to what the terminal supports (256, 16 or 8 colours, or
/// none), so views name colours by meaning and never check the terminal.
public enum Color: Sendable, Hashable {
    /// The terminal's own foreground or background.
    case `default`
    /// One of the 16 standard colours (0–7 normal, 8–15 bright).
    case basic(UInt8)
    /// A colour of the 256-colour palette.
    case indexed(UInt8)

    /// Black (0).
    public static let black = Color.basic(0)
    /// Red (1).
    public static let red = Color.basic(1)
    /// Green (2).
    public static let green = Color.basic(2)
    /// Yellow (3).
    public static let yellow = Color.basic(3)
    /// Blue (4).
    public static let blue = Color.basic(4)
    /// Magenta (5).
    public static let magenta = Color.basic(5)
    /// Cyan (6).
    public static let cyan = Color.basic(6)
    /// White (7).
    public static let white = Color.basic(7)
    /// Bright black, which terminals show as grey (8).
    public static let gray = Color.basic(8)

    /// The nearest of the 8 basic colours (for terminals with 8 colours).
    public var basic8: UInt8? {
        switch self {
        case .default: return nil
        case .basic(let value): return value & 7
        case .indexed(let value):
            if value < 16 { return value & 7 }
            if value >= 232 { return value >= 244 ? 7 : 0 }
            // 6x6x6 cube: pick the channels that are on.
            let cube = Int(value) - 16
            let (r, g, b) = (cube / 36, (cube / 6) % 6, cube % 6)
            return UInt8((r >= 3 ? 1 : 0) | (g >= 3 ? 2 : 0) | (b >= 3 ? 4 : 0))
        }
    }
}

/// Text attributes.
public struct Attributes: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: UInt8
    /// Attributes from bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Bold (or bright).
    public static let bold = Attributes(rawValue: 1)
    /// Dim.
    public static let dim = Attributes(rawValue: 2)
    /// Underlined.
    public static let underline = Attributes(rawValue: 4)
    /// Foreground and background swapped.
    public static let reverse = Attributes(rawValue: 8)
}

/// How a cell looks.
public struct Style: Sendable, Hashable {
    /// Text colour.
    public var foreground: Color
    /// Cell colour.
    public var background: Color
    /// Bold, dim, underline, reverse.
    public var attributes: Attributes

    /// A style; everything defaults to the terminal's own.
    public init(foreground: Color = .default, background: Color = .default, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's default look.
    public static let plain = Style()

    /// This style with attributes added.
    public func with(_ extra: Attributes) -> Style {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }
}
