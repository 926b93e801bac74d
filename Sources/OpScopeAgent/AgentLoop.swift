import EventCoding
import Foundation
import OperationEvents
#if canImport(Glibc)
import Glibc
#endif

/// The agent's thread: one `poll` over the listening socket, a wake pipe and every connection.
/// It never blocks on a console: sockets are non-blocking, each console's output is bounded,
/// and commands run on a queue of their own (they may run app code). With no console connected
/// it sleeps in `poll` until a connection or `stop()` wakes it, so an idle agent costs nothing.
final class AgentLoop: @unchecked Sendable {
    // Safety: everything but `shared` and the descriptors (fixed at init) is used by the loop's
    // thread alone; `shared` is guarded by its lock.
    let source: any EventSource
    let configuration: AgentConfiguration
    let listener: Int32
    let wakeRead: Int32
    let wakeWrite: Int32
    let header: StreamHeader
    var connections: [AgentConnection] = []
    var nextNumber = 1
    var statistics = AgentStatistics()
    let shared = Shared()
    let commandQueue = DispatchQueue(label: "opscope.agent.commands")
    private var readBuffer = [UInt8](repeating: 0, count: 65_536)

    /// What other threads hand the loop: a stop request and command replies; and what they read:
    /// the statistics.
    final class Shared: @unchecked Sendable {
        // Safety: all fields are guarded by `lock`.
        let lock = NSCondition()
        var stopping = false
        var finished = false
        var replies: [(connection: Int, frame: [UInt8])] = []
        var statistics = AgentStatistics()
    }

    init(source: any EventSource, configuration: AgentConfiguration, listener: Int32, header: StreamHeader) throws(AttachError) {
        self.source = source
        self.configuration = configuration
        self.listener = listener
        self.header = header
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw AttachError(.system, "pipe: \(UnixSocket.lastError())") }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        for end in ends {
            UnixSocket.setNonBlocking(end)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
    }

    /// Makes the loop look at everything now (a reply arrived, stop, a test moved the clock).
    func wake() {
        // Under the lock, so that it never writes to the pipe after `shutDown` closed it (the
        // descriptor's number could belong to another file by then).
        shared.lock.lock()
        defer { shared.lock.unlock() }
        guard !shared.finished else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Asks the loop to end and waits until it has: consoles are told the stream ended.
    func stop() {
        shared.lock.lock()
        shared.stopping = true
        shared.lock.unlock()
        wake()
        shared.lock.lock()
        while !shared.finished { shared.lock.wait() }
        shared.lock.unlock()
    }

    var currentStatistics: AgentStatistics {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        return shared.statistics
    }

    /// The loop; returns after `stop()`.
    func run() {
        while !isStopping {
            turn()
        }
        shutDown()
    }

    private var isStopping: Bool {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        return shared.stopping
    }

    private func turn() {
        var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        for connection in connections {
            var events = connection.phase == .closing ? 0 : Int16(POLLIN)
            if connection.output.pending > 0 { events |= Int16(POLLOUT) }
            descriptors.append(pollfd(fd: connection.descriptor, events: events, revents: 0))
        }
        let ready = poll(&descriptors, nfds_t(descriptors.count), pollTimeout())
        let now = configuration.clock()
        if ready > 0 {
            if descriptors[0].revents != 0 { drainWakePipe() }
            if descriptors[1].revents & Int16(POLLIN) != 0 { acceptAll(now: now) }
            for (index, connection) in connections.enumerated() where index + 2 < descriptors.count {
                let revents = descriptors[index + 2].revents
                if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, connection.phase != .closing {
                    receive(connection, now: now)
                }
            }
        }
        deliverReplies(now: now)
        for connection in connections where connection.phase == .streaming {
            pump(connection, now: now)
        }
        for connection in connections {
            flush(connection, now: now)
            checkDeadlines(connection, now: now)
        }
        removeClosed()
        statistics.turns += 1
        publish()
    }

    /// Milliseconds `poll` may sleep: forever with nobody connected; the pump interval while
    /// consoles stream; otherwise until the next deadline could pass (at least 10 ms, at most a
    /// second, so a manual clock in tests is looked at without spinning).
    private func pollTimeout() -> Int32 {
        if connections.isEmpty { return -1 }
        if connections.contains(where: { $0.phase == .streaming }) {
            return Int32(max(1, configuration.pumpInterval * 1_000))
        }
        let now = configuration.clock()
        var earliest = UInt64.max
        for connection in connections {
            earliest = min(earliest, deadline(of: connection) ?? .max)
        }
        guard earliest != .max else { return 1_000 }
        let remaining = earliest > now ? (earliest - now) / 1_000_000 : 0
        return Int32(min(1_000, max(10, remaining)))
    }

    private func deadline(of connection: AgentConnection) -> UInt64? {
        var result: UInt64?
        func consider(_ value: UInt64?) { if let value { result = min(result ?? .max, value) } }
        if connection.phase == .greeting { consider(connection.acceptedAt &+ configuration.handshakeTimeout) }
        consider(connection.partialSince.map { $0 &+ configuration.frameTimeout })
        if connection.output.pending > 0 { consider(connection.lastProgress &+ configuration.stallTimeout) }
        consider(connection.closeDeadline)
        return result
    }

    private func drainWakePipe() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &bytes, bytes.count) > 0 {}
    }

    // MARK: Connections

    private func acceptAll(now: UInt64) {
        while true {
            let descriptor = accept(listener, nil, nil)
            if descriptor < 0 {
                if errno == EINTR { continue }
                return
            }
            UnixSocket.setNonBlocking(descriptor)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            statistics.connectionsAccepted += 1
            let connection = AgentConnection(descriptor: descriptor, number: nextNumber, now: now)
            nextNumber += 1
            connections.append(connection)
            // Every connection's peer is checked, whatever the file system allowed.
            let peer = UnixSocket.peer(of: descriptor)
            if let peer, peer.uid != geteuid(), peer.uid != 0 {
                statistics.peersRefused += 1
                refuse(connection, "permission denied: this program runs as uid \(geteuid()); uid \(peer.uid) may not attach", now: now)
            } else if peer == nil {
                statistics.peersRefused += 1
                refuse(connection, "permission denied: the connecting process could not be identified", now: now)
            } else if connections.count > configuration.maximumClients {
                statistics.clientsRefusedAsTooMany += 1
                refuse(connection, "too many consoles: this program serves at most \(configuration.maximumClients) at once", now: now)
            }
        }
    }

    func refuse(_ connection: AgentConnection, _ reason: String, version: Int? = nil, now: UInt64) {
        connection.finish(with: Messages.frame(RefusedMessage(reason: reason, version: version)), reason: reason,
                          now: now, grace: 1_000_000_000)
    }

    func fail(_ connection: AgentConnection, _ reason: String, now: UInt64) {
        statistics.connectionsClosedForErrors += 1
        refuse(connection, reason, now: now)
    }

    private func receive(_ connection: AgentConnection, now: UInt64) {
        var budget = 4 * readBuffer.count
        while budget > 0, connection.phase != .closing {
            let count = readBuffer.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT)) }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                if connection.partialBytes > 0 { statistics.connectionsClosedForErrors += 1 }
                connection.finish(with: nil, reason: "the console closed the connection", now: now, grace: 0)
                connection.output = OutputBuffer()
                return
            }
            if count < 0 { return }
            budget -= count
            connection.received += count
            connection.decoder.append(readBuffer[0..<count])
            do throws(EventStreamError) {
                while connection.phase != .closing, let payload = try connection.decoder.nextFrame() {
                    handle(payload, from: connection, now: now)
                }
            } catch {
                fail(connection, "broken frame: \(error.description)", now: now)
                return
            }
            let partial = connection.partialBytes
            statistics.largestReceiveBuffer = max(statistics.largestReceiveBuffer, partial)
            if partial == 0 {
                connection.partialSince = nil
            } else if connection.partialSince == nil {
                connection.partialSince = now
            }
        }
    }

    private func handle(_ payload: ArraySlice<UInt8>, from connection: AgentConnection, now: UInt64) {
        let kind: String
        do throws(LineDecodingError) {
            kind = try Messages.line(payload).kind
        } catch {
            return fail(connection, "malformed frame: \(error.description)", now: now)
        }
        if connection.phase == .greeting {
            guard kind == "hello", let hello = Messages.decode(HelloMessage.self, payload) else {
                return fail(connection, "expected the console's hello, got a \"\(kind)\" frame", now: now)
            }
            return greet(connection, hello, now: now)
        }
        switch kind {
        case "command":
            guard let message = Messages.decode(CommandMessage.self, payload) else {
                return fail(connection, "malformed command", now: now)
            }
            perform(message, for: connection, now: now)
        case "resync":
            connection.subscription?.resynchronize()
        default:
            fail(connection, "unexpected \"\(kind)\" frame", now: now)
        }
    }
}
