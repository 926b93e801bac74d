import Foundation

/// Peak resident memory of this process (VmHWM), in kilobytes.
public func peakResidentKilobytes() -> Int {
    statusKilobytes("VmHWM:")
}

/// Resident memory of this process now (VmRSS), in kilobytes.
public func residentKilobytes() -> Int {
    statusKilobytes("VmRSS:")
}

/// The figure of the line of /proc/self/status that starts with `field` (0 when there is none).
private func statusKilobytes(_ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix(field) {
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
}
