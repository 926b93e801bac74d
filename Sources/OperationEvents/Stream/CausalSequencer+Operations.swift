extension CausalSequencer {
    /// What became of an event of an operation with nothing held.
    enum Outcome {
        /// Emitted, or dropped as late.
        case done
        /// Must wait for the finish of `dependency`; `waiting` is what waits (the event itself,
        /// or the readiness split off an announcement).
        case blocked(dependency: Int, waiting: MonitorEvent)
    }

    /// An event of an operation with nothing held: emitted now, or the start of a hold.
    mutating func run(_ event: MonitorEvent, id: Int) {
        if case .blocked(let dependency, let waiting) = process(event, id: id) {
            startHold(waiting, id: id, on: dependency)
        }
    }

    /// Applies the per-operation rules to one event of a live operation and emits it, unless a
    /// dependency's finish must come first.
    mutating func process(_ event: MonitorEvent, id: Int) -> Outcome {
        let flags = table.flags(id)
        // A cancelled operation waits for no dependency, and neither does one that went ahead.
        let waits = flags.isDisjoint(with: [.cancelled, .wentAhead])
        switch event.change {
        case .operationAdded(var info):
            // A first announcement, or a dependency-only operation joining a queue (same id).
            switch info.observation {
            case .sampled, .external:
                table.insert(.inexact, into: id)
                table.remove(.announcesFinish, from: id)
            case .hooked:
                table.remove([.inexact, .announcesFinish], from: id)
            case .instrumented:
                table.remove(.inexact, from: id)
                table.insert(.announcesFinish, into: id)
            }
            if info.isCancelled { table.insert(.cancelled, into: id) }
            if !info.dependencies.isEmpty { table.addPending(info.dependencies.lazy.map(\.rawValue), to: id) }
            if info.isReady, !info.isCancelled, waits,
               let dependency = table.firstUnfinishedDependency(of: id) {
                // Shown not ready now; the readiness it claimed follows its dependency's finish.
                info.isReady = false
                emit(MonitorEvent(time: event.time, origin: event.origin, change: .operationAdded(info)))
                let readiness = MonitorEvent(
                    time: event.time, origin: event.origin, change: .ready(operation: info.id, isReady: true))
                return .blocked(dependency: dependency, waiting: readiness)
            }
            emit(event)
        case .ready(_, let isReady):
            if flags.contains(.started) {
                statistics.droppedLate += 1
                return .done
            }
            if isReady, waits, let dependency = table.firstUnfinishedDependency(of: id) {
                return .blocked(dependency: dependency, waiting: event)
            }
            emit(event)
        case .started:
            if flags.contains(.started) {
                statistics.droppedLate += 1
                return .done
            }
            if waits, let dependency = table.firstUnfinishedDependency(of: id) {
                return .blocked(dependency: dependency, waiting: event)
            }
            table.insert(.started, into: id)
            emit(event)
        case .finished(_, let cancelled):
            if !cancelled, waits, let dependency = table.firstUnfinishedDependency(of: id) {
                return .blocked(dependency: dependency, waiting: event)
            }
            emit(event)
            finish(id)
        case .cancelled:
            if flags.contains(.cancelled) {
                statistics.droppedLate += 1
                return .done
            }
            table.insert(.cancelled, into: id)
            emit(event)
        case .dependencyAdded(_, let dependency):
            emit(event)
            table.addPending(CollectionOfOne(dependency.rawValue), to: id)
        case .dependencyRemoved(_, let dependency):
            emit(event)
            table.removePending(dependency.rawValue, from: id)
        case .released:
            emit(event)
            finish(id)
        default:
            emit(event)
        }
        return .done
    }

    /// The operation's last event was emitted: forget it, and let its waiters try again.
    mutating func finish(_ id: Int) {
        table.finish(id)
        if !waiters.isEmpty, let list = waiters.removeValue(forKey: id) {
            runnable.append(contentsOf: list)
        }
    }

    /// Emits an inferred finish (and start, when it must have run) for an operation whose own
    /// causes have all finished.
    mutating func inferFinish(_ id: Int, time: UInt64) {
        let flags = table.flags(id)
        let operation = OperationID(id)
        if !flags.contains(.started), !flags.contains(.cancelled) {
            emit(MonitorEvent(time: time, origin: .inferred, change: .started(operation: operation)))
        }
        emit(MonitorEvent(time: time, origin: .inferred,
                          change: .finished(operation: operation, cancelled: flags.contains(.cancelled))))
        statistics.inferredFinishes += 1
        finish(id)
    }
}
