#if canImport(Glibc)
import Glibc
#endif

/// Bytes waiting to be written to one connection: appended at the end, written from the front
/// without blocking. The agent keeps it under a limit by not taking more events while it is
/// full, so what it holds is bounded by the limit plus one batch (or one keyframe).
struct OutputBuffer {
    private(set) var bytes: [UInt8] = []
    private var head = 0

    /// Bytes not written yet.
    var pending: Int { bytes.count - head }

    mutating func append(_ frame: [UInt8]) {
        bytes.append(contentsOf: frame)
    }

    /// Appends through a closure that writes into the buffer's end (no copy of the frame).
    mutating func appendFrames(_ body: (inout [UInt8]) -> Void) {
        body(&bytes)
    }

    /// Writes as much as the socket takes now. Returns the bytes written, or nil when the peer
    /// is gone.
    mutating func write(to descriptor: Int32) -> Int? {
        var total = 0
        while head < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress! + head, bytes.count - head, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if written > 0 {
                head += written
                total += written
                continue
            }
            if written < 0, errno == EINTR { continue }
            if written < 0, errno == EAGAIN || errno == EWOULDBLOCK { break }
            return nil
        }
        compact()
        return total
    }

    /// Forgets what was written: all of it when everything went, or the written front once it
    /// is most of the array (amortised O(1) per byte).
    private mutating func compact() {
        if head == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
            head = 0
        } else if head >= 1 << 16, head * 2 >= bytes.count {
            bytes.removeSubrange(0..<head)
            head = 0
        }
    }
}
