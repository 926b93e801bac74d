import DashboardSession
import Foundation

/// The thread the dashboard runs on, and how its caller waits for it without starving
/// `OperationQueue.main`.
enum DashboardThread {
    /// Runs `body` on a new thread named `opscope.dashboard` and records its result.
    static func start(_ outcome: Outcome, _ body: @escaping @Sendable () throws -> SessionEnding) {
        let thread = Thread {
            do { outcome.finish(.success(try body())) } catch { outcome.finish(.failure(error)) }
        }
        thread.name = "opscope.dashboard"
        thread.start()
    }

    /// Waits about `seconds`; on the main thread the main run loop turns meanwhile (so
    /// `OperationQueue.main` runs), falling back to sleeping where it cannot (inside a
    /// main-queue block, where it would return at once and spin).
    static func pause(_ seconds: Double) {
        guard Thread.isMainThread else {
            Thread.sleep(forTimeInterval: seconds)
            return
        }
        let started = Date()
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: seconds))
        let elapsed = Date().timeIntervalSince(started)
        if elapsed < seconds / 2 { Thread.sleep(forTimeInterval: seconds - elapsed) }
    }

    /// The dashboard thread's result, waited for by the caller.
    final class Outcome: @unchecked Sendable {
        // Safety: `result` and `continuation` are guarded by `lock`.
        private let lock = NSCondition()
        private var result: Result<SessionEnding, Error>?
        private var continuation: CheckedContinuation<SessionEnding, Error>?

        func finish(_ value: Result<SessionEnding, Error>) {
            lock.lock()
            result = value
            let waiting = continuation
            continuation = nil
            lock.broadcast()
            lock.unlock()
            waiting?.resume(with: value)
            // A caller waiting in the main run loop wakes for main-queue work: post some.
            DispatchQueue.main.async {}
        }

        /// Blocks until the thread ends. On the main thread the main run loop keeps turning (so
        /// `OperationQueue.main` runs); where it cannot (inside a main-queue block) this sleeps
        /// in short steps instead of spinning.
        func wait() throws -> SessionEnding {
            while true {
                lock.lock()
                if let result {
                    lock.unlock()
                    return try result.get()
                }
                if !Thread.isMainThread {
                    _ = lock.wait(until: Date(timeIntervalSinceNow: 0.05))
                    lock.unlock()
                    continue
                }
                lock.unlock()
                DashboardThread.pause(0.25)
            }
        }

        func value() async throws -> SessionEnding {
            try await withCheckedThrowingContinuation { continuation in
                lock.lock()
                if let result {
                    lock.unlock()
                    continuation.resume(with: result)
                    return
                }
                self.continuation = continuation
                lock.unlock()
            }
        }
    }
}
