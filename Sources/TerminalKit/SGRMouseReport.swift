/// An xterm SGR (mode 1006) mouse report, `ESC [ < button ; column ; row M` (or `m` for a
/// release), read after its `ESC [ <`. The backend parses it itself where ncurses does not (a
/// terminal description whose `kmous` is the X10 `ESC [ M`, as tmux-256color's): otherwise its
/// bytes would reach the dashboard as keys (`<` sorts, digits switch views).
public enum SGRMouseReport {
    /// The longest body accepted (three numbers, two `;`, the final letter): anything longer is
    /// not a report.
    public static let maximumLength = 24

    /// What a complete body means: a click or wheel step, or nil for what the dashboard does not
    /// use (releases, motion, other buttons). Coordinates are 1-based in the report, 0-based here.
    /// `body` is everything after `ESC [ <`, final `M` or `m` included; nil also for a malformed one.
    public static func event(_ body: String) -> MouseEvent? {
        guard let final = body.last, final == "M" || final == "m" else { return nil }
        let numbers = body.dropLast().split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        guard numbers.count == 3, let button = numbers[0], let column = numbers[1], let row = numbers[2],
              column >= 1, row >= 1, final == "M" else { return nil }
        // Shift, Meta and Ctrl (4, 8, 16) do not change what a click or a wheel step means;
        // motion (32) is a drag or a hover, not a click.
        let plain = button & ~(4 | 8 | 16)
        let kind: MouseEvent.Kind
        switch plain {
        case 0: kind = .press
        case 64: kind = .wheelUp
        case 65: kind = .wheelDown
        default: return nil
        }
        return MouseEvent(kind, x: column - 1, y: row - 1)
    }

    /// Whether `character` can continue a body that is not complete yet.
    public static func continues(_ character: Character) -> Bool {
        character == ";" || character.isASCII && character.isNumber
    }
}
