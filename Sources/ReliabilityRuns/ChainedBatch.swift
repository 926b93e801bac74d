extension CountedOperation {
    /// A batch of `count` operations of a few microseconds each, as the soak and the long run
    /// submit them: chains inside the batch (about two in three depend on one of the four
    /// before them), which cross queues when the batch is dealt out round robin.
    static func chainedBatch(count: Int, life: LifeCounter, using random: inout some RandomNumberGenerator) -> [CountedOperation] {
        var made: [CountedOperation] = []
        made.reserveCapacity(count)
        for index in 0..<count {
            let operation = CountedOperation(life, spin: Int.random(in: 10...200, using: &random))
            if index > 0, index % 3 != 0 { operation.addDependency(made[index - 1 - Int.random(in: 0..<min(index, 4), using: &random)]) }
            made.append(operation)
        }
        return made
    }
}
