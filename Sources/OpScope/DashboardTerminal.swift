import DashboardUI
import Foundation
import NcursesBackend
import TerminalKit

/// What the dashboard loop needs from a terminal: the ncurses one, or a scripted one in tests.
/// The loop uses it from its own thread only.
public protocol DashboardTerminal: AnyObject {
    /// Columns and rows now.
    var size: (width: Int, height: Int) { get }
    /// The next key, if one is waiting (never blocks).
    func readKey() -> Key?
    /// Shows a frame (only what changed, unless `full`).
    func draw(_ buffer: Buffer, full: Bool)
    /// A terminating signal that arrived, if any.
    var pendingSignal: Int32? { get }
    /// Waits up to `seconds`, returning early when a key arrives.
    func waitForInput(seconds: Double)
}

extension DashboardTerminal {
    public func waitForInput(seconds: Double) { Thread.sleep(forTimeInterval: seconds) }
}

extension NcursesTerminal: DashboardTerminal {}
