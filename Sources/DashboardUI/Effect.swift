import OperationEvents

/// What handling input asks of the session, beyond the view changes it already made.
public enum Effect: Sendable, Equatable {
    /// Send a command to the source (the monitor, or a recording, which refuses it).
    case command(MonitorCommand)
    /// Ask the source to play differently (speed, restart, seek); refused by a live program.
    case playback(PlaybackRequest)
    /// Move the paused display by this many events (negative: back), narrating each.
    case step(Int)
    /// Draw the next frame.
    case redraw
    /// Repaint every cell (Ctrl-L), not only the changed ones.
    case fullRedraw
    /// End the session.
    case quit
}
