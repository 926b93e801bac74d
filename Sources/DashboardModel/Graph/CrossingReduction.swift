/// Crossing reduction for a `LayeredLayout`: median sweeps, then adjacent exchange, over one
/// flat order of all the layers and flat neighbour lists in buffers of their own, allocated once
/// per reduction (the passes touch every edge a dozen times: no bounds or uniqueness checks in
/// them).
///
/// Every node (real and dummy) as a slot: node `n` is slot `n` (real) or `realCount - n - 1`
/// (dummy). Its neighbours in the layers above and below, and its position, are kept per
/// slot; `order` lists the slots layer after layer. The adjacency does not change while
/// nodes move within their layers, so it is built once per crossing reduction.
struct CrossingReduction: ~Copyable {
    let realCount: Int
    let upStart: UnsafeMutableBufferPointer<Int32>
    let up: UnsafeMutableBufferPointer<Int32>
    let downStart: UnsafeMutableBufferPointer<Int32>
    let down: UnsafeMutableBufferPointer<Int32>
    let position: UnsafeMutableBufferPointer<Int32>
    /// Layer `l` is `order[layerStart[l]..<layerStart[l + 1]]`, top to bottom.
    let layerStart: UnsafeMutableBufferPointer<Int>
    let layerCount: Int
    let order: UnsafeMutableBufferPointer<Int32>
    /// The order with the fewest crossings so far.
    let best: UnsafeMutableBufferPointer<Int32>
    // Scratch, as wide as the widest layer.
    let tree: UnsafeMutableBufferPointer<Int32>
    let keys: UnsafeMutableBufferPointer<UInt64>
    let saved: UnsafeMutableBufferPointer<Int32>
    /// Scratch for the rare node with more than two neighbours on a side.
    var values: [Int32] = []
    var others: [Int32] = []

    init(_ layout: LayeredLayout) {
        let realCount = layout.realCount
        let total = layout.realCount + layout.dummyCount
        // Filled through locals first: a closure may not capture `self` before it is whole.
        let upStart = UnsafeMutableBufferPointer<Int32>.allocate(capacity: total + 1)
        let downStart = UnsafeMutableBufferPointer<Int32>.allocate(capacity: total + 1)
        let up = UnsafeMutableBufferPointer<Int32>.allocate(capacity: layout.dummyCount + layout.upReal.entryCount)
        let down = UnsafeMutableBufferPointer<Int32>.allocate(capacity: layout.dummyCount + layout.downReal.entryCount)
        let position = UnsafeMutableBufferPointer<Int32>.allocate(capacity: total)
        var (upFill, downFill) = (0, 0)
        for slot in 0..<total {
            upStart[slot] = Int32(upFill)
            downStart[slot] = Int32(downFill)
            if slot < realCount {
                layout.upReal.forEach(slot) { other in
                    up[upFill] = Int32(Self.slot(other, realCount))
                    upFill += 1
                }
                layout.downReal.forEach(slot) { other in
                    down[downFill] = Int32(Self.slot(other, realCount))
                    downFill += 1
                }
                position[slot] = Int32(layout.positionOfReal[slot])
            } else {
                let dummy = slot - realCount
                up[upFill] = Int32(Self.slot(layout.upDummy[dummy], realCount))
                down[downFill] = Int32(Self.slot(layout.downDummy[dummy], realCount))
                (upFill, downFill) = (upFill + 1, downFill + 1)
                position[slot] = Int32(layout.positionOfDummy[dummy])
            }
        }
        upStart[total] = Int32(upFill)
        downStart[total] = Int32(downFill)
        (self.realCount, self.upStart, self.downStart, self.up, self.down, self.position) = (realCount, upStart, downStart, up, down, position)
        layerCount = layout.layers.count
        layerStart = .allocate(capacity: layerCount + 1)
        order = .allocate(capacity: total)
        best = .allocate(capacity: total)
        var fill = 0
        var widest = 0
        for (index, layer) in layout.layers.enumerated() {
            layerStart[index] = fill
            for node in layer {
                order[fill] = Int32(Self.slot(node, realCount))
                fill += 1
            }
            widest = max(widest, layer.count)
        }
        layerStart[layerCount] = fill
        tree = .allocate(capacity: widest + 1)
        keys = .allocate(capacity: widest)
        saved = .allocate(capacity: widest)
    }

    deinit {
        for buffer in [upStart, up, downStart, down, position, order, best, tree, saved] { buffer.deallocate() }
        layerStart.deallocate()
        keys.deallocate()
    }

    @inline(__always) static func slot(_ node: Int, _ realCount: Int) -> Int { node >= 0 ? node : realCount - node - 1 }
    @inline(__always) func node(_ slot: Int32) -> Int { Int(slot) < realCount ? Int(slot) : realCount - Int(slot) - 1 }

    /// Sets every position from `order`.
    func reindexAll() {
        for layer in 0..<layerCount {
            let start = layerStart[layer]
            for index in start..<layerStart[layer + 1] { position[Int(order[index])] = Int32(index - start) }
        }
    }

    /// Twice the median position of a slot's neighbours on one side (an integer: a median of
    /// positions is a whole or a half), nil without neighbours.
    mutating func doubledMedian(_ slot: Int, upward: Bool) -> Int? {
        let (starts, list) = upward ? (upStart, up) : (downStart, down)
        let from = Int(starts[slot])
        let to = Int(starts[slot + 1])
        switch to - from {
        case 0: return nil
        case 1: return 2 * Int(position[Int(list[from])])
        case 2: return Int(position[Int(list[from])]) + Int(position[Int(list[from + 1])])
        default:
            values.removeAll(keepingCapacity: true)
            for index in from..<to { values.append(position[Int(list[index])]) }
            values.sort()
            let middle = values.count / 2
            return values.count % 2 == 1 ? 2 * Int(values[middle]) : Int(values[middle - 1]) + Int(values[middle])
        }
    }

    /// Orders a layer by the median position of each node's neighbours in the layer above
    /// (`upward`) or below; a node without such neighbours keeps its place. Ties keep their
    /// order: the key is (median, position), both whole numbers once the median is doubled,
    /// packed into one integer, and positions are distinct, so the order is total.
    mutating func sortByMedian(_ layer: Int, upward: Bool) {
        let start = layerStart[layer]
        let count = layerStart[layer + 1] - start
        guard count > 1 else { return }
        for index in 0..<count {
            let slot = Int(order[start + index])
            let place = Int(position[slot])
            let key = doubledMedian(slot, upward: upward) ?? 2 * place
            keys[index] = UInt64(key) << 32 | UInt64(place)
            saved[index] = order[start + index]
        }
        var sorted = UnsafeMutableBufferPointer(rebasing: keys[0..<count])
        sorted.sort()
        for index in 0..<count {
            let slot = saved[Int(keys[index] & 0xFFFF_FFFF)]
            order[start + index] = slot
            position[Int(slot)] = Int32(index)
        }
    }

    /// Crossings between the edges of layer `layer` and the layer below: pairs of edges
    /// whose upper ends are in one order and lower ends in the other, counted with a
    /// Fenwick tree over the lower layer (Barth, Jünger and Mutzel's accumulator tree).
    func crossings(below layer: Int) -> Int {
        let lowerWidth = layerStart[layer + 2] - layerStart[layer + 1]
        guard lowerWidth > 0 else { return 0 }
        let tree = tree.baseAddress!
        tree.update(repeating: 0, count: lowerWidth + 1)
        var crossings = 0
        var inserted = 0
        for index in layerStart[layer]..<layerStart[layer + 1] {
            let slot = Int(order[index])
            let edges = Int(downStart[slot])..<Int(downStart[slot + 1])
            // An edge crosses the edges of nodes above its own that end further right. The
            // edges of one node are all looked up before any is added: they never cross.
            for edge in edges {
                var at = Int(position[Int(down[edge])]) + 1
                var atOrLeft = 0
                while at > 0 {
                    atOrLeft += Int(tree[at])
                    at &= at - 1
                }
                crossings += inserted - atOrLeft
            }
            for edge in edges {
                var at = Int(position[Int(down[edge])]) + 1
                while at <= lowerWidth {
                    tree[at] += 1
                    at += at & -at
                }
            }
            inserted += edges.count
        }
        return crossings
    }

    /// All crossings between adjacent layers.
    func totalCrossings() -> Int {
        var sum = 0
        for layer in 0..<max(0, layerCount - 1) { sum += crossings(below: layer) }
        return sum
    }

    /// For two nodes of one layer, their edges toward one side: the crossings with `first`
    /// left of `second` (pairs whose `first` end lies right of the `second` end), and with
    /// them swapped.
    mutating func pairCrossings(_ first: Int, _ second: Int, upward: Bool) -> (kept: Int, swapped: Int) {
        let (starts, list) = upward ? (upStart, up) : (downStart, down)
        let a = Int(starts[first])..<Int(starts[first + 1])
        let b = Int(starts[second])..<Int(starts[second + 1])
        if a.isEmpty || b.isEmpty { return (0, 0) }
        var kept = 0
        var swapped = 0
        if a.count * b.count <= 4_096 {
            for i in a {
                let p = position[Int(list[i])]
                for j in b {
                    let q = position[Int(list[j])]
                    if q < p { kept += 1 } else if p < q { swapped += 1 }
                }
            }
            return (kept, swapped)
        }
        // Hubs: both sides sorted once, then counted by merging.
        values.removeAll(keepingCapacity: true)
        others.removeAll(keepingCapacity: true)
        for i in a { values.append(position[Int(list[i])]) }
        for j in b { others.append(position[Int(list[j])]) }
        values.sort()
        others.sort()
        var below = 0
        var atOrBelow = 0
        for p in values {
            while below < others.count, others[below] < p { below += 1 }
            if atOrBelow < below { atOrBelow = below }
            while atOrBelow < others.count, others[atOrBelow] <= p { atOrBelow += 1 }
            kept += below
            swapped += others.count - atOrBelow
        }
        return (kept, swapped)
    }

    /// One pass of adjacent exchange, layer by layer from the top: returns by how much the
    /// crossings changed (exactly: swapping two neighbours changes only the crossings among
    /// their own edges) and whether anything moved.
    mutating func exchangeAdjacent() -> (change: Int, moved: Bool) {
        var change = 0
        var moved = false
        for layer in 0..<layerCount {
            let start = layerStart[layer]
            let end = layerStart[layer + 1]
            guard end - start > 1 else { continue }
            for index in start..<(end - 1) {
                let first = Int(order[index])
                let second = Int(order[index + 1])
                let upward = pairCrossings(first, second, upward: true)
                let downward = pairCrossings(first, second, upward: false)
                let (kept, swapped) = (upward.kept + downward.kept, upward.swapped + downward.swapped)
                if swapped < kept {
                    order.swapAt(index, index + 1)
                    position[first] = Int32(index + 1 - start)
                    position[second] = Int32(index - start)
                    change += swapped - kept
                    moved = true
                }
            }
        }
        return (change, moved)
    }

    /// Keeps the current order as the best one.
    func keepBest() { best.baseAddress!.update(from: order.baseAddress!, count: order.count) }

    /// Goes back to the best order kept.
    func restoreBest() {
        order.baseAddress!.update(from: best.baseAddress!, count: order.count)
        reindexAll()
    }
}
