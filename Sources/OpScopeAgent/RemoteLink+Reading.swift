import EventCoding
import Foundation
import OperationEvents
#if canImport(Glibc)
import Glibc
#endif

/// The reader thread: frames into the inbox; when the connection drops, why, and connecting again.
extension RemoteLink {
    /// Seconds between two attempts to connect again.
    static let retryInterval = 0.5

    func read(from first: RemoteHandshake.Connected) {
        var connected = first
        while true {
            let reason = stream(connected)
            writeLock.lock()
            lock.lock()
            Glibc.close(descriptor)
            descriptor = -1
            if closed {
                status = .ended("closed")
            } else {
                status = reconnects ? .reconnecting(reason) : .ended(reason)
            }
            lock.broadcast()
            let stop = closed || !reconnects
            lock.unlock()
            writeLock.unlock()
            if stop { return }
            guard let again = reconnect() else { return }
            connected = again
        }
    }

    /// Tries the same path until it answers, or the link is closed (nil). While the path is gone
    /// (nobody serves it, or only a dead program's socket is left), a program's own socket in the
    /// user's directory also looks for the program started again (`RestartSearch`).
    private func reconnect() -> RemoteHandshake.Connected? {
        // Sockets found to serve another program, for the whole wait (see `RestartSearch.find`).
        var ruledOut = Set<String>()
        while true {
            lock.lock()
            if !closed { _ = lock.wait(until: Date(timeIntervalSinceNow: RemoteLink.retryInterval)) }
            let stop = closed
            if stop { status = .ended("closed") }
            let (lost, lostPath) = (welcome, path)
            lock.unlock()
            if stop { return nil }
            do throws(AttachError) {
                let connected = try RemoteHandshake.connect(path: lostPath, mode: mode, client: client)
                adopt(connected, at: lostPath)
                return connected
            } catch where error.kind == .notFound || error.kind == .stale {
                guard let restarts, let found = restarts.find(replacing: lost, lostPath: lostPath, ruledOut: &ruledOut),
                      let connected = try? RemoteHandshake.connect(path: found.path, mode: mode, client: client) else { continue }
                // Between its description and this greeting the program may have gone and
                // another taken its socket: only the program looked for is taken.
                guard connected.welcome.program == lost.program else {
                    Glibc.close(connected.descriptor)
                    continue
                }
                adopt(connected, at: found.path)
                return connected
            } catch {
                continue
            }
        }
    }

    /// Reads one connection to its end; returns why it ended, for the dashboard.
    private func stream(_ connected: RemoteHandshake.Connected) -> String {
        var decoder = connected.decoder
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var endedByProgram = false
        while true {
            var events: [MonitorEvent] = []
            do throws(EventStreamError) {
                while let payload = try decoder.nextFrame() {
                    let line: StreamLine
                    do throws(LineDecodingError) {
                        line = try Messages.line(payload)
                    } catch {
                        return "connection lost (the program sent a broken frame: \(error.description))"
                    }
                    switch line {
                    case .event(let event):
                        events.append(event)
                    case .keyframe(let keyframe):
                        deliver(&events)
                        guard let state = try? keyframe.decodeState(as: StreamState.self) else {
                            return "connection lost (the program's keyframe could not be read)"
                        }
                        lock.lock()
                        inbox = Inbox(start: .keyframe(state), events: [], droppedTotal: inbox.droppedTotal)
                        latestRemoteTime = max(latestRemoteTime, state.time)
                        lock.unlock()
                    case .dropped(let marker):
                        deliver(&events)
                        lock.lock()
                        inbox.droppedTotal += max(0, marker.count)
                        lock.unlock()
                    case .end:
                        endedByProgram = true
                    case .header:
                        break
                    case .unknown(let kind):
                        deliver(&events)
                        control(kind, payload)
                    }
                }
            } catch {
                return "connection lost (\(error.description))"
            }
            deliver(&events)
            let count = recv(connected.descriptor, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return endedByProgram || programGone() ? "program exited" : "connection lost" }
            decoder.append(buffer[0..<count])
        }
    }

    /// Replies and the clock; kinds this console does not know are skipped (a newer agent's).
    private func control(_ kind: String, _ payload: ArraySlice<UInt8>) {
        switch kind {
        case "reply":
            guard let reply = Messages.decode(ReplyMessage.self, payload) else { return }
            lock.lock()
            if waiting.contains(reply.id) {
                replies[reply.id] = reply.result
                lock.broadcast()
            }
            lock.unlock()
        case "clock":
            guard let clock = Messages.decode(ClockMessage.self, payload) else { return }
            lock.lock()
            clockBase = (clock.time, AgentConfiguration.monotonicNow())
            latestRemoteTime = max(latestRemoteTime, clock.time)
            lock.unlock()
        default:
            break
        }
    }

    /// Moves decoded events into the inbox. Past its capacity (the consumer stopped taking) the
    /// inbox gives up what it holds, counts it as lost and asks the agent for a keyframe; events
    /// until that keyframe are lost too.
    private func deliver(_ events: inout [MonitorEvent]) {
        guard !events.isEmpty else { return }
        lock.lock()
        var askForKeyframe = false
        if inbox.awaitingStart {
            inbox.droppedTotal += events.count
        } else if inbox.events.count + events.count > inboxCapacity {
            inbox.droppedTotal += inbox.events.count + events.count
            inbox.events = []
            inbox.awaitingStart = true
            askForKeyframe = true
        } else {
            inbox.events.append(contentsOf: events)
        }
        if let last = events.last { latestRemoteTime = max(latestRemoteTime, last.time) }
        lock.unlock()
        events.removeAll(keepingCapacity: true)
        if askForKeyframe { resynchronize() }
    }

    /// After the connection ended without an `end` line: the program is gone unless an agent
    /// still answers a greeting at its socket (a killed process's socket file stays; a dying
    /// one may still take a connection it will never answer).
    private func programGone() -> Bool {
        guard let connected = try? RemoteHandshake.connect(path: currentPath, mode: .commands, client: client, timeout: 2) else {
            return true
        }
        Glibc.close(connected.descriptor)
        return false
    }
}
