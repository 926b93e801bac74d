import ArgumentParser

/// The operation counts of a scaling curve, from `--sizes` (comma-separated); each must be at
/// least 100. `allowingNone`: an empty list (no curve) is accepted.
func scalingSizes(_ sizes: String, allowingNone: Bool) throws -> [Int] {
    let counts = sizes.split(separator: ",").compactMap { Int($0) }
    guard allowingNone || !counts.isEmpty, counts.allSatisfy({ $0 >= 100 }) else {
        throw ValidationError("--sizes takes counts of at least 100")
    }
    return counts
}
