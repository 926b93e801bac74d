import EventCoding
import OperationEvents

/// One console's connection, as the agent's loop sees it (used from the loop's thread only).
final class AgentConnection {
    /// Where the connection is in the protocol.
    enum Phase: Equatable {
        /// Connected; the console's greeting has not arrived.
        case greeting
        /// Greeted in `stream` mode: events flow, commands are taken.
        case streaming
        /// Greeted in `commands` mode.
        case commands
        /// Nothing more is read; the connection closes once its last frames are written (or at
        /// `closeDeadline`).
        case closing
    }

    let descriptor: Int32
    /// The connection's number, in the consumer's name and in diagnostics.
    let number: Int
    var phase = Phase.greeting
    var decoder: FrameDecoder
    var output = OutputBuffer()
    var subscription: (any EventSubscription)?
    /// Bytes received so far (to tell how much of an incomplete frame is held).
    var received = 0
    /// When the connection was accepted (agent clock).
    let acceptedAt: UInt64
    /// When the first byte of the frame still incomplete arrived.
    var partialSince: UInt64?
    /// When bytes were last written to the console (or it had nothing waiting).
    var lastProgress: UInt64
    /// When a frame was last queued for it (for the clock message).
    var lastQueued: UInt64
    /// Events lost by its subscription that it was told of.
    var droppedSent = 0
    var commandsInFlight = 0
    var closeDeadline: UInt64?
    /// Why the connection ends, once it does (for tests and diagnostics).
    var closeReason: String?

    init(descriptor: Int32, number: Int, now: UInt64) {
        self.descriptor = descriptor
        self.number = number
        decoder = FrameDecoder(source: "agent client \(number)", maximumFrameSize: AttachProtocol.maximumClientFrame)
        acceptedAt = now
        lastProgress = now
        lastQueued = now
    }

    /// Bytes of an incomplete incoming frame held now.
    var partialBytes: Int { received - decoder.nextPosition.offset }

    /// Queues a message and stops reading: the connection closes once it is written.
    func finish(with frame: [UInt8]?, reason: String, now: UInt64, grace: UInt64) {
        if let frame { output.append(frame) }
        phase = .closing
        closeReason = reason
        closeDeadline = now &+ grace
        subscription?.close()
        subscription = nil
    }
}
