/// Counts edge crossings between two adjacent layers in O(E log W): sort the edges by their
/// upper end, then count inversions of their lower ends with a Fenwick tree (the
/// "accumulator tree" of Barth, Jünger and Mutzel).
enum CrossingCounter {
    /// Crossings among edges given as (upper position, lower position) pairs.
    static func count(_ edges: [(upper: Int, lower: Int)], lowerWidth: Int) -> Int {
        guard edges.count > 1, lowerWidth > 0 else { return 0 }
        let sorted = edges.sorted { ($0.upper, $0.lower) < ($1.upper, $1.lower) }
        var tree = [Int](repeating: 0, count: lowerWidth + 1)
        var crossings = 0
        var inserted = 0
        for edge in sorted {
            // Edges already inserted whose lower end is to the right cross this one.
            var index = edge.lower + 1
            var atOrLeft = 0
            while index > 0 {
                atOrLeft += tree[index]
                index -= index & -index
            }
            crossings += inserted - atOrLeft
            index = edge.lower + 1
            while index <= lowerWidth {
                tree[index] += 1
                index += index & -index
            }
            inserted += 1
        }
        return crossings
    }

    /// Crossings between two nodes `first` (left/above) and `second` of one layer, counting only
    /// their edges to one neighbouring layer (positions given, sorted ascending).
    static func pairCrossings(_ first: [Int], _ second: [Int]) -> Int {
        var crossings = 0
        var j = 0
        for a in first {
            while j < second.count, second[j] < a { j += 1 }
            crossings += j
        }
        return crossings
    }
}
