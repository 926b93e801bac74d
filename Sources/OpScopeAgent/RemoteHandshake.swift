import EventCoding
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The console's side of the greeting: connect, say hello, read the agent's welcome (or its
/// refusal) within a deadline. What arrived after the welcome stays in the returned decoder.
enum RemoteHandshake {
    struct Connected {
        var descriptor: Int32
        var welcome: WelcomeMessage
        var decoder: FrameDecoder
        /// Bytes read so far (the decoder's positions count from the connection's start).
        var received: Int
    }

    static func connect(path: String, mode: AttachMode, client: String, timeout: Double = 5,
                        version: Int = AttachProtocol.version) throws(AttachError) -> Connected {
        let descriptor = try UnixSocket.make()
        do throws(AttachError) {
            UnixSocket.setTimeouts(descriptor, seconds: timeout)
            try UnixSocket.connect(descriptor, to: path)
            let hello = HelloMessage(protocol: AttachProtocol.name, version: version, client: client, mode: mode)
            // A refused console may find the connection closed already: its refusal is still
            // there to read, so a failed write is not the end.
            _ = UnixSocket.writeAll(descriptor, Messages.frame(hello))
            var decoder = FrameDecoder(source: path, maximumFrameSize: AttachProtocol.maximumAgentFrame)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var received = 0
            while true {
                let payload: ArraySlice<UInt8>?
                do throws(EventStreamError) {
                    payload = try decoder.nextFrame()
                } catch {
                    throw AttachError(.protocolError, "\(path): not an OpScope agent (\(error.description))")
                }
                if let payload {
                    let welcome = try answer(payload, path: path)
                    return Connected(descriptor: descriptor, welcome: welcome, decoder: decoder, received: received)
                }
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count < 0, errno == EINTR { continue }
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    throw AttachError(.protocolError, "\(path): no greeting from the program within \(Int(timeout)) s")
                }
                if count <= 0 {
                    throw AttachError(.protocolError, "\(path): the program closed the connection before greeting")
                }
                received += count
                decoder.append(buffer[0..<count])
            }
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// The welcome, or the refusal as an error.
    private static func answer(_ payload: ArraySlice<UInt8>, path: String) throws(AttachError) -> WelcomeMessage {
        let kind = (try? Messages.line(payload))?.kind
        if kind == "refused", let refused = Messages.decode(RefusedMessage.self, payload) {
            if refused.version != nil { throw AttachError(.versionMismatch, refused.reason) }
            if refused.reason.hasPrefix("permission denied") { throw AttachError(.permission, refused.reason) }
            throw AttachError(.refused, "the program refused: \(refused.reason)")
        }
        guard kind == "welcome", let welcome = Messages.decode(WelcomeMessage.self, payload),
              welcome.protocol == AttachProtocol.name else {
            throw AttachError(.protocolError, "\(path): not an OpScope agent (its first frame is not a welcome)")
        }
        guard welcome.version == AttachProtocol.version else {
            throw AttachError(.versionMismatch, "protocol version mismatch: the program's agent speaks \(AttachProtocol.name) "
                + "version \(welcome.version), this console version \(AttachProtocol.version); attach with the same OpScope version")
        }
        return welcome
    }
}
