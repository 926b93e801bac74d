import OperationEvents

/// One diagnosis pass: each operation's cause is computed once, in dependency order with an
/// explicit stack (never by recursion: chains can be 100,000 deep), and shared by every
/// operation that waits on it.
struct DiagnosisContext {
    /// Why an operation has not finished, as seen from the operations waiting for it. It names
    /// the next link and the root, never the whole chain: its size does not grow with the depth.
    struct Cause {
        /// Nil when the operation is a root in a situation of its own (executing, finish not
        /// signalled): it has no diagnosis, but it is what its dependents wait for.
        var kind: Diagnosis.Kind?
        var blockers: [OperationID]
        var next: OperationID?
        var root: OperationID?
        /// Operations from this one to the root, both counted.
        var length: Int
        var queue: QueueID?
        /// The root's situation, e.g. "#7 download executing 34 s, asynchronous".
        var text: String
        /// Higher is worse; the worst dependency is the one followed.
        var severity: Int
        /// Since when the root has been in its situation (earlier is worse at equal severity).
        var since: UInt64
    }

    /// An operation whose cause waits for its unfinished dependencies' causes.
    private struct Frame {
        let id: OperationID
        let dependencies: [OperationID]
        var next = 0
    }

    /// What an operation's cause needs: nothing more, or its unfinished dependencies' causes.
    enum Start {
        case cause(Cause)
        case dependencies([OperationID])
    }

    /// A named cycle, as the causes of its component's members need it.
    struct CycleSummary {
        var members: [OperationID]
        var onCycle: Set<OperationID>
        var description: String
    }

    /// A chain longer than this is shortened in messages to its first links, length and root.
    static let spelledLinks = 6

    let model: DashboardModel
    let now: UInt64
    /// The readiness rules at `now`, shared with the warnings so that both agree.
    let readiness: ReadinessRules
    private var causes: [OperationID: Cause] = [:]
    /// Operations on the explicit stack: meeting one again means a loop.
    private var inProgress: Set<OperationID> = []
    var executingByQueue: [QueueID: [OperationID]]?
    var startOrders: [QueueID: (ids: [OperationID], positions: [OperationID: Int])] = [:]
    var cycleSummaries: [Int: CycleSummary] = [:]

    /// A pass that expects to look at about `expected` operations (all of them, for every
    /// diagnosis at once): its tables are sized once instead of growing step by step.
    init(model: DashboardModel, now: UInt64, expected: Int = 0) {
        self.model = model
        self.now = now
        readiness = ReadinessRules(model: model, now: now)
        causes.reserveCapacity(expected)
    }

    mutating func diagnosis(of id: OperationID) -> Diagnosis? {
        guard model.operations.read(id, { $0.state < .executing }) == true, let cause = cause(of: id),
              let kind = cause.kind else { return nil }
        var message = cause.text
        if kind == .waitingOnDependencies, cause.next != nil {
            let others = cause.blockers.count - 1
            message = chainText(from: id, cause) + ": " + cause.text
                + (others > 0 ? " (and \(others) more unfinished dependenc\(others == 1 ? "y" : "ies"))" : "")
        }
        return Diagnosis(operation: id, kind: kind, blockers: cause.blockers, next: cause.next, chainLength: cause.length,
                         rootCause: cause.root, queue: cause.queue, message: message)
    }

    /// The path from `id` to its root, following the next links.
    mutating func chain(from id: OperationID) -> [OperationID] {
        guard let cause = cause(of: id), cause.kind != nil else { return [] }
        var path = [id]
        var current = cause
        while path.count < cause.length, let next = current.next {
            path.append(next)
            guard let following = causes[next] else { break }
            current = following
        }
        return path
    }

    func label(_ id: OperationID) -> String { model.operations.read(id) { $0.label } ?? id.description }

    /// `#9 update waits on #8 parse waits on #7 download`; beyond `spelledLinks`, the first three
    /// links, then `… (a chain of 99,998 operations) … #1 download`. Built in one string: this
    /// runs once per waiting operation.
    private func chainText(from id: OperationID, _ cause: Cause) -> String {
        let spelled = cause.length <= Self.spelledLinks ? cause.length : 3
        var text = label(id)
        text.reserveCapacity(200)
        var links = 1
        var current = cause
        while links < spelled, let next = current.next {
            text += " waits on "
            text += label(next)
            links += 1
            guard let following = causes[next] else { break }
            current = following
        }
        if cause.length > Self.spelledLinks {
            text += " waits on … (a chain of "
            text += DurationText.grouped(cause.length)
            text += " operations)"
            if let root = cause.root {
                text += " … "
                text += label(root)
            }
        }
        return text
    }

    // MARK: Causes in dependency order

    mutating func cause(of id: OperationID) -> Cause? {
        if let known = causes[id] { return known }
        guard let first = begin(id) else { return nil }
        var stack: [Frame] = []
        switch first {
        case .cause(let cause):
            causes[id] = cause
            return cause
        case .dependencies(let dependencies):
            inProgress.insert(id)
            stack.append(Frame(id: id, dependencies: dependencies))
        }
        while !stack.isEmpty {
            let top = stack.count - 1
            if stack[top].next < stack[top].dependencies.count {
                let dependency = stack[top].dependencies[stack[top].next]
                stack[top].next += 1
                if causes[dependency] != nil || inProgress.contains(dependency) { continue }
                switch begin(dependency) {
                case .cause(let cause): causes[dependency] = cause
                case .dependencies(let dependencies):
                    inProgress.insert(dependency)
                    stack.append(Frame(id: dependency, dependencies: dependencies))
                case nil: break
                }
                continue
            }
            let frame = stack.removeLast()
            inProgress.remove(frame.id)
            causes[frame.id] = combine(frame)
        }
        return causes[id]
    }

    /// What `id`'s cause needs, or nil when it is finished or not retained.
    private mutating func begin(_ id: OperationID) -> Start? {
        guard let record = model.operations[id], record.state != .finished else { return nil }
        return start(record)
    }

    /// Waiting on dependencies: the worst of their causes, followed one link further.
    private func combine(_ frame: Frame) -> Cause {
        var worst: (dependency: OperationID, cause: Cause)?
        for dependency in frame.dependencies {
            let candidate: Cause
            if let known = causes[dependency] {
                candidate = known
            } else if inProgress.contains(dependency) {
                // A loop the cycle detection has not reported (yet): its member is the root.
                candidate = loopCause(dependency)
            } else {
                continue
            }
            if let current = worst?.cause,
               (current.severity, UInt64.max - current.since) >= (candidate.severity, UInt64.max - candidate.since) {
                continue
            }
            worst = (dependency, candidate)
        }
        let addedAt = model.operations.read(frame.id) { $0.addedAt } ?? now
        guard let worst else {
            return Cause(kind: .waitingOnDependencies, blockers: frame.dependencies, next: nil, root: nil, length: 1,
                         queue: nil, text: "dependencies unfinished", severity: 10, since: addedAt)
        }
        return Cause(kind: .waitingOnDependencies, blockers: frame.dependencies, next: worst.dependency,
                     root: worst.cause.root, length: worst.cause.length + 1, queue: worst.cause.queue,
                     text: worst.cause.text, severity: worst.cause.severity, since: worst.cause.since)
    }

    private func loopCause(_ id: OperationID) -> Cause {
        let (label, addedAt, queue) = model.operations.read(id) { ($0.label, $0.addedAt, $0.queue) } ?? (id.description, now, nil)
        return Cause(kind: .cycle, blockers: [], next: nil, root: id, length: 1, queue: queue,
                     text: "\(label) is part of a dependency cycle", severity: 100, since: addedAt)
    }
}
