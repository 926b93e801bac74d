/// Incremental edits: new nodes and edges placed without a full layout.
extension LayeredLayout {
    // MARK: Incremental edits

    /// Inserts a new real node (index `realCount`) with edges from `predecessors` (existing real
    /// nodes): its layer is 1 + their largest layer, its place the median of theirs, and existing
    /// nodes keep their order. Returns the new node's index.
    @discardableResult
    package mutating func insertNode(predecessors: [Int]) -> Int {
        let node = realCount
        let layer = predecessors.map { layerOfReal[$0] + 1 }.max() ?? 0
        layerOfReal.append(layer)
        positionOfReal.append(0)
        upReal.addList()
        downReal.addList()
        while layers.count <= layer { layers.append([]) }
        // Dummies first, so the node's place is the median of its neighbours just above it.
        let partial = predecessors.map { dummies(from: $0, toLayer: layer) }
        let anchors = partial.map { Double(position(of: $0.last!)) }
        place(node, in: layer, key: anchors.isEmpty ? Double.infinity : Self.medianDouble(anchors))
        for (predecessor, chain) in zip(predecessors, partial) {
            link(chain.last!, node)
            addChain(Edge(predecessor, node), source: predecessor, target: node, firstDummy: chain.count > 1 ? chain[1] : 0,
                     dummyCount: chain.count - 1)
        }
        editsSinceFullLayout += 1
        return node
    }

    /// Inserts an edge between existing real nodes. An edge that would point backwards in the
    /// layering needs a new layering: returns false, and the caller recomputes the layout.
    package mutating func insertEdge(from: Int, to: Int) -> Bool {
        guard layerOfReal[from] < layerOfReal[to] else { return false }
        let chain = dummies(from: from, toLayer: layerOfReal[to])
        link(chain.last!, to)
        addChain(Edge(from, to), source: from, target: to, firstDummy: chain.count > 1 ? chain[1] : 0, dummyCount: chain.count - 1)
        editsSinceFullLayout += 1
        return true
    }

    /// The source and new dummies for an edge from `source` down to `layer` (not yet linked to
    /// its target), each dummy placed next to the node above it.
    private mutating func dummies(from source: Int, toLayer layer: Int) -> [Int] {
        var chain = [source]
        var previous = source
        let top = layerOfReal[source]
        if layer > top + 1 {
            for dummyLayer in (top + 1)..<layer {
                let dummy = -(layerOfDummy.count + 1)
                layerOfDummy.append(dummyLayer)
                positionOfDummy.append(0)
                upDummy.append(previous)
                downDummy.append(0)
                place(dummy, in: dummyLayer, key: Double(position(of: previous)))
                link(previous, dummy)
                chain.append(dummy)
                previous = dummy
            }
        }
        return chain
    }

    /// Inserts `node` into `layer` before the first node whose own key (median of its upper
    /// neighbours) is larger, shifting the rest down by one.
    private mutating func place(_ node: Int, in layer: Int, key: Double) {
        var index = layers[layer].count
        if key.isFinite {
            for (position, other) in layers[layer].enumerated() where upperKey(other, fallback: position) > key {
                index = position
                break
            }
        }
        layers[layer].insert(node, at: index)
        for position in index..<layers[layer].count {
            let moved = layers[layer][position]
            if moved >= 0 { positionOfReal[moved] = position } else { positionOfDummy[-moved - 1] = position }
        }
    }

    /// The median position of a node's upper neighbours, without allocating for the common
    /// cases (a dummy or a node with one or two dependencies).
    private func upperKey(_ node: Int, fallback: Int) -> Double {
        if node < 0 { return Double(position(of: upDummy[-node - 1])) }
        var count = 0
        var first = 0
        var second = 0
        upReal.forEach(node) { neighbour in
            if count == 0 { first = neighbour } else if count == 1 { second = neighbour }
            count += 1
        }
        switch count {
        case 0: return Double(fallback)
        case 1: return Double(position(of: first))
        case 2: return Double(position(of: first) + position(of: second)) / 2
        default: return Self.median(upReal.list(node).map(position(of:)))
        }
    }

    static func medianDouble(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
