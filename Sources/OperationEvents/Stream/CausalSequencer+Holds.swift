extension CausalSequencer {
    /// Holds `event` (and, from now on, every later event of `id`) until `dependency` finished.
    mutating func startHold(_ event: MonitorEvent, id: Int, on dependency: Int) {
        nextEpoch += 1
        held[id] = Held(events: [event], epoch: nextEpoch)
        table.insert(.held, into: id)
        heldCount += 1
        statistics.held += 1
        holdOrder.append(HoldMark(id: id, epoch: nextEpoch, since: latestTime, received: statistics.received))
        wait(id, on: dependency, time: event.time)
    }

    /// Registers `id` as waiting for `dependency`'s finish. A finish that cannot arrive exactly
    /// is inferred at once, unless the dependency has held events of its own to let out first.
    mutating func wait(_ id: Int, on dependency: Int, time: UInt64) {
        var slot = table[id]
        guard slot.blocker != dependency else { return }
        slot.blocker = dependency
        table[id] = slot
        waiters[dependency, default: []].append(id)
        let flags = table.flags(dependency)
        if flags.contains(.inexact), !flags.contains(.held) {
            toSettle.append((dependency, time))
        }
    }

    /// Lets out what can go: held events whose cause arrived, finishes to infer. Iterative:
    /// letting one operation out may free others, which are queued here, never recursed into.
    mutating func runPending() {
        var index = 0
        while true {
            if index < runnable.count {
                let id = runnable[index]
                index += 1
                release(id)
            } else if let next = toSettle.popLast() {
                settle(next.id, time: next.time)
            } else {
                break
            }
        }
        runnable.removeAll(keepingCapacity: true)
    }

    /// Emits the held events of `id` in order, until one must wait again or none is left.
    mutating func release(_ id: Int) {
        guard var queue = held.removeValue(forKey: id) else { return }
        while queue.head < queue.events.count {
            guard table.isLive(id) else {
                // It finished: whatever followed its finish is late.
                let left = queue.events.count - queue.head
                statistics.droppedLate += left
                heldCount -= left
                return
            }
            let event = queue.events[queue.head]
            switch process(event, id: id) {
            case .done:
                queue.head += 1
                heldCount -= 1
            case .blocked(let dependency, let waiting):
                queue.events[queue.head] = waiting
                held[id] = queue
                wait(id, on: dependency, time: waiting.time)
                return
            }
        }
        guard table.isLive(id) else { return }
        table.remove(.held, from: id)
        var slot = table[id]
        slot.blocker = 0
        table[id] = slot
        // Others waited for it while it was held; if its finish cannot come exactly, infer it.
        if table.flags(id).contains(.inexact), waiters[id] != nil {
            toSettle.append((id, queue.events.last?.time ?? latestTime))
        }
    }

    // MARK: The window

    /// Ends the holds that began longer ago than the window, oldest first.
    mutating func expireHolds() {
        while let mark = holdOrder.first {
            guard let queue = held[mark.id], queue.epoch == mark.epoch else {
                holdOrder.removeFirst()
                continue
            }
            let age = latestTime >= mark.since ? latestTime - mark.since : 0
            guard age > window.nanoseconds || statistics.received - mark.received > window.events else { return }
            holdOrder.removeFirst()
            statistics.expiredHolds += 1
            expire(mark.id)
        }
    }

    /// Lets out every held event of `id`, inferring the finishes it waits for; or, when what it
    /// waits for is an instrumented operation, taking it as one that went ahead.
    mutating func expire(_ id: Int) {
        while let queue = held[id] {
            let blocker = table[id].blocker
            let flags = table.isLive(blocker) ? table.flags(blocker) : []
            if flags.contains(.announcesFinish), !flags.contains(.held) {
                // An instrumented finish is reported before Foundation lets any dependent go, so
                // it is not late: `id` did not wait for it (its `isReady` ignores dependencies).
                // Inferring the finish would show a running operation finished. (When the
                // dependency's own events are held here, its finish may be among them: settled
                // below like any other.)
                table.insert(.wentAhead, into: id)
                statistics.wentAhead += 1
                release(id)
                runPending()
                continue
            }
            // Settling finishes the dependency (or, in a cycle, takes one member as cancelled),
            // so every turn lets at least one held event out.
            settle(table[id].blocker, time: queue.events[queue.head].time)
            release(id)
            runPending()
        }
    }

    /// Makes `target` finished by inference: first everything it waits for (its held events'
    /// causes, its own unfinished dependencies), depth first on an explicit stack.
    ///
    /// Each operation on the stack depends on the one above it. A dependency already on the
    /// stack closes a cycle, which Foundation only ever leaves by a cancel: the operation the
    /// cycle leads back to is taken as cancelled (an inferred `cancelled`), which frees it from
    /// its dependencies, and what was stacked above it for its sake is dropped.
    mutating func settle(_ target: Int, time: UInt64) {
        guard table.isLive(target) else { return }
        var stack = [target]
        table.insert(.settling, into: target)
        while let top = stack.last {
            guard table.isLive(top) else {
                stack.removeLast()
                continue
            }
            let flags = table.flags(top)
            let next: Int?
            if flags.contains(.held) {
                let blocker = table[top].blocker
                next = table.isLive(blocker) && blocker != top ? blocker : nil
                if next == nil {
                    release(top)
                    continue
                }
            } else if !flags.contains(.cancelled) {
                next = table.firstUnfinishedDependency(of: top)
            } else {
                next = nil
            }
            guard let next else {
                inferFinish(top, time: time)
                stack.removeLast()
                continue
            }
            if table.flags(next).contains(.settling) {
                breakCycle(at: next, stack: &stack, time: time)
            } else {
                table.insert(.settling, into: next)
                stack.append(next)
            }
        }
    }

    /// `entry`, on the stack, is waited for by the top of the stack: a cycle. `entry` is taken as
    /// cancelled, and the operations stacked above it are no longer needed.
    private mutating func breakCycle(at entry: Int, stack: inout [Int], time: UInt64) {
        statistics.brokenCycles += 1
        while let top = stack.last, top != entry {
            if table.isLive(top) { table.remove(.settling, from: top) }
            stack.removeLast()
        }
        table.insert(.cancelled, into: entry)
        emit(MonitorEvent(time: time, origin: .inferred, change: .cancelled(operation: OperationID(entry))))
        if table.flags(entry).contains(.held) { release(entry) }
    }
}
