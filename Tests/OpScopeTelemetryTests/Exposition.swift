import Foundation

/// Prometheus's text format read back: each sample by its series (`name{label="value",...}`,
/// labels sorted), with the `# HELP` and `# TYPE` lines by metric name.
struct Exposition {
    var samples: [String: Double] = [:]
    var help: [String: String] = [:]
    var types: [String: String] = [:]

    init(_ bytes: [UInt8]) {
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("# HELP ") {
                let rest = line.dropFirst(7)
                guard let space = rest.firstIndex(of: " ") else { continue }
                help[String(rest[..<space])] = String(rest[rest.index(after: space)...])
            } else if line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst(7).split(separator: " ")
                if parts.count == 2 { types[String(parts[0])] = String(parts[1]) }
            } else if !line.hasPrefix("#"), let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) {
                samples[Self.series(String(line[..<space]))] = value
            }
        }
    }

    /// A series' key with its labels sorted, so that tests name them in any order.
    static func series(_ text: String) -> String {
        guard let open = text.firstIndex(of: "{"), text.hasSuffix("}") else { return text }
        let name = text[..<open]
        let labels = text[text.index(after: open)..<text.index(before: text.endIndex)]
            .split(separator: ",").map(String.init).sorted()
        return "\(name){\(labels.joined(separator: ","))}"
    }

    /// The sample of `name` with `labels`, if there is one.
    subscript(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let key = labels.isEmpty ? name : "\(name){\(labels.map { "\($0.key)=\"\($0.value)\"" }.sorted().joined(separator: ","))}"
        return samples[key]
    }
}
