#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The last terminating signal received (0: none). A signal handler may only do async-signal-safe
/// work, so it stores the number and the dashboard's loop (which looks at least every 50 ms)
/// restores the terminal and leaves.
let receivedSignal = Atomic<Int32>(0)

/// Signals that end the dashboard cleanly.
enum SignalWatch {
    static let terminating: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Installs the handlers (before ncurses starts, so that it keeps them).
    static func install() {
        receivedSignal.store(0, ordering: .relaxed)
        for number in terminating {
            signal(number) { number in receivedSignal.store(number, ordering: .relaxed) }
        }
    }

    /// Puts the default handlers back.
    static func uninstall() {
        for number in terminating { signal(number, SIG_DFL) }
    }

    /// The signal to leave for, if any.
    static var pending: Int32? {
        let value = receivedSignal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }
}
