import EventCoding
import Foundation
import OperationEvents
#if canImport(Glibc)
import Glibc
#endif

/// The greeting, commands, the stream's pump, writing, deadlines and the end.
extension AgentLoop {
    func greet(_ connection: AgentConnection, _ hello: HelloMessage, now: UInt64) {
        guard hello.protocol == AttachProtocol.name else {
            return fail(connection, "not an \(AttachProtocol.name) greeting (protocol \"\(hello.protocol)\")", now: now)
        }
        guard hello.version == AttachProtocol.version else {
            statistics.connectionsClosedForErrors += 1
            let reason = "protocol version mismatch: this program's agent speaks \(AttachProtocol.name) version "
                + "\(AttachProtocol.version), the console version \(hello.version); attach with the same OpScope version"
            return refuse(connection, reason, version: AttachProtocol.version, now: now)
        }
        var welcome = WelcomeMessage(
            protocol: AttachProtocol.name, version: AttachProtocol.version, program: configuration.program,
            processID: configuration.processIdentity?.processID ?? getpid(),
            startedAt: configuration.processIdentity?.startedAt ?? ProcessStart.wallClock.description, now: source.now(),
            commandsRefused: configuration.readOnly ? AgentLoop.readOnlyReason : nil,
            templates: source.workTemplates, queues: nil)
        switch hello.mode {
        case .info:
            welcome.queues = queueNames()
            connection.finish(with: Messages.frame(welcome), reason: "info given", now: now, grace: 1_000_000_000)
        case .commands:
            connection.output.append(Messages.frame(welcome))
            connection.phase = .commands
        case .stream:
            connection.output.append(Messages.frame(welcome))
            connection.output.append(FrameEncoder.frame(.header(header)))
            connection.subscription = source.subscribe(SubscriptionRequest(consumer: "agent client \(connection.number)"))
            connection.phase = .streaming
        }
        connection.lastQueued = now
    }

    static let readOnlyReason = "read-only: the program serves its state but takes no commands"

    /// The live queues' names, from a subscription's starting point (the program's present).
    private func queueNames() -> [String] {
        let subscription = source.subscribe(SubscriptionRequest(consumer: "agent info", bufferCapacity: 1))
        defer { subscription.close() }
        switch subscription.next(limit: 0).start {
        case .snapshot(let snapshot)?: return snapshot.queues.map(\.name)
        case .keyframe(let state)?: return state.queues.values.filter { !$0.isReleased }.map(\.name)
        case nil: return []
        }
    }

    func perform(_ message: CommandMessage, for connection: AgentConnection, now: UInt64) {
        func refuseCommand(_ reason: String) {
            statistics.commandsRefused += 1
            // Published before the reply is queued: whoever reads the reply sees the count.
            publish()
            connection.output.append(Messages.frame(ReplyMessage(id: message.id, refused: CommandError(.unsupported, reason))))
            connection.lastQueued = now
        }
        if configuration.readOnly { return refuseCommand(AgentLoop.readOnlyReason) }
        guard connection.commandsInFlight < configuration.commandsInFlight else {
            return refuseCommand("too many commands at once (at most \(configuration.commandsInFlight)); wait for their replies")
        }
        connection.commandsInFlight += 1
        statistics.commandsPerformed += 1
        let (source, shared, number, observer) = (self.source, self.shared, connection.number, configuration.onCommand)
        // Commands call app code (`cancel()`, template factories): never on the loop's thread,
        // and with no lock held.
        commandQueue.async { [weak self] in
            let result = source.perform(message.command)
            observer?(message.command, result)
            var reply = ReplyMessage(id: message.id)
            switch result {
            case .success(let receipt): reply.done = receipt
            case .failure(let error): reply.refused = error
            }
            shared.lock.lock()
            shared.replies.append((number, Messages.frame(reply)))
            shared.lock.unlock()
            self?.wake()
        }
    }

    func deliverReplies(now: UInt64) {
        shared.lock.lock()
        let replies = shared.replies
        shared.replies = []
        shared.lock.unlock()
        for (number, frame) in replies {
            guard let connection = connections.first(where: { $0.number == number }) else { continue }
            connection.commandsInFlight -= 1
            guard connection.phase != .closing else { continue }
            connection.output.append(frame)
            connection.lastQueued = now
        }
    }

    /// Moves events from the console's subscription to its output while the output is under its
    /// limit. Over it, nothing is taken: the subscription falls behind on its own bounded buffer
    /// (losing and counting events there, never waiting) and restarts from a keyframe.
    func pump(_ connection: AgentConnection, now: UInt64) {
        guard let subscription = connection.subscription else { return }
        var rounds = 0
        while connection.output.pending < configuration.sendBufferLimit, rounds < 16 {
            rounds += 1
            let batch = subscription.next(limit: configuration.batchLimit)
            if batch.droppedTotal > connection.droppedSent {
                let lost = batch.droppedTotal - connection.droppedSent
                connection.droppedSent = batch.droppedTotal
                connection.output.append(FrameEncoder.frame(.dropped(DroppedMarker(count: lost, time: source.now()))))
            }
            if let start = batch.start {
                guard let frame = keyframe(start) else {
                    return fail(connection, "the program's state could not be encoded", now: now)
                }
                connection.output.append(frame)
                statistics.keyframesSent += 1
                statistics.largestKeyframe = max(statistics.largestKeyframe, frame.count)
            }
            if !batch.events.isEmpty {
                connection.output.appendFrames { bytes in
                    for event in batch.events { FrameEncoder.append(event, to: &bytes) }
                }
                statistics.eventsSent += batch.events.count
            }
            if batch.start != nil || !batch.events.isEmpty { connection.lastQueued = now }
            if batch.events.count < configuration.batchLimit { break }
        }
        if connection.output.pending == 0, now &- connection.lastQueued >= configuration.clockInterval {
            connection.output.append(Messages.frame(ClockMessage(time: source.now())))
            connection.lastQueued = now
        }
        statistics.largestSendBuffer = max(statistics.largestSendBuffer, connection.output.pending)
    }

    /// A start as a keyframe line: a snapshot (a source without history) becomes the state it
    /// describes, so that consoles always start from a keyframe.
    private func keyframe(_ start: StreamStart) -> [UInt8]? {
        let state: StreamState
        switch start {
        case .keyframe(let keyframe): state = keyframe
        case .snapshot(let snapshot):
            var fresh = StreamState()
            _ = fresh.catchUp(to: snapshot)
            state = fresh
        }
        guard let line = try? Keyframe(sequence: state.nextSequence, time: state.time, state: state) else { return nil }
        return FrameEncoder.frame(.keyframe(line))
    }

    func flush(_ connection: AgentConnection, now: UInt64) {
        guard connection.output.pending > 0 else {
            connection.lastProgress = now
            return
        }
        guard let written = connection.output.write(to: connection.descriptor) else {
            connection.finish(with: nil, reason: "the console went away", now: now, grace: 0)
            connection.output = OutputBuffer()
            return
        }
        if written > 0 { connection.lastProgress = now }
    }

    func checkDeadlines(_ connection: AgentConnection, now: UInt64) {
        if connection.phase == .closing { return }
        if connection.phase == .greeting, now &- connection.acceptedAt >= configuration.handshakeTimeout {
            return fail(connection, "no greeting within \(configuration.handshakeTimeout / 1_000_000_000) s", now: now)
        }
        if let since = connection.partialSince, now &- since >= configuration.frameTimeout {
            return fail(connection, "a frame did not arrive whole within \(configuration.frameTimeout / 1_000_000_000) s", now: now)
        }
        if connection.output.pending > 0, now &- connection.lastProgress >= configuration.stallTimeout {
            statistics.clientsDropped += 1
            connection.finish(with: nil, reason: "dropped: it read nothing for \(configuration.stallTimeout / 1_000_000_000) s",
                              now: now, grace: 0)
            connection.output = OutputBuffer()
        }
    }

    func removeClosed() {
        let now = configuration.clock()
        connections.removeAll { connection in
            guard connection.phase == .closing else { return false }
            let done = connection.output.pending == 0 || now >= (connection.closeDeadline ?? 0)
            if done { close(connection.descriptor) }
            return done
        }
    }

    func publish() {
        statistics.clientsConnected = connections.count
        shared.lock.lock()
        shared.statistics = statistics
        shared.lock.unlock()
    }

    /// The end: streaming consoles are told (an `end` line), everything is closed.
    func shutDown() {
        let end = FrameEncoder.frame(.end(EndMarker(time: source.now(), events: nil, reason: "program exited")))
        for connection in connections {
            connection.subscription?.close()
            if connection.phase == .streaming { connection.output.append(end) }
            _ = connection.output.write(to: connection.descriptor)
            close(connection.descriptor)
        }
        connections = []
        close(wakeRead)
        publish()
        shared.lock.lock()
        shared.finished = true
        close(wakeWrite)
        shared.lock.broadcast()
        shared.lock.unlock()
    }
}
