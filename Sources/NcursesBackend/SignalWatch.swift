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

/// Set by Ctrl-Z (SIGTSTP): the dashboard's loop hands the terminal back and stops the process
/// itself, on the thread that draws. ncurses's own handler would do that work inside the signal
/// handler, on whichever thread took the signal, while the dashboard's thread may be drawing:
/// their output could interleave, and the dashboard came back after `fg` with lines missing.
let suspendRequested = Atomic<Bool>(false)

/// Signals that end the dashboard cleanly, and Ctrl-Z.
enum SignalWatch {
    static let terminating: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Installs the handlers (before ncurses starts, so that it keeps them: it installs its own
    /// SIGTSTP handler only where none is).
    static func install() {
        receivedSignal.store(0, ordering: .relaxed)
        suspendRequested.store(false, ordering: .relaxed)
        for number in terminating {
            signal(number) { number in receivedSignal.store(number, ordering: .relaxed) }
        }
        watchSuspend()
    }

    /// Puts the default handlers back.
    static func uninstall() {
        for number in terminating { signal(number, SIG_DFL) }
        signal(SIGTSTP, SIG_DFL)
    }

    private static func watchSuspend() {
        signal(SIGTSTP) { _ in suspendRequested.store(true, ordering: .relaxed) }
    }

    /// Whether Ctrl-Z asked to suspend since the last call.
    static func takeSuspendRequest() -> Bool {
        suspendRequested.exchange(false, ordering: .relaxed)
    }

    /// Stops the process as Ctrl-Z does without a handler (the shell sees a stopped job) and
    /// returns once it is continued (`fg`, `bg` or SIGCONT).
    static func stopUntilContinued() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        watchSuspend()
    }

    /// The signal to leave for, if any.
    static var pending: Int32? {
        let value = receivedSignal.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }
}
