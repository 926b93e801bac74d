import OperationEvents

extension DashboardModel {
    /// Sets the model's clock back to `time` (never before the stream's own latest time): a
    /// replay that moved back shows durations, retention and warnings as of that moment, not as
    /// of the latest moment it had shown. A live model's clock only moves forward
    /// (`advance(to:)`).
    public mutating func rewindClock(to time: UInt64) {
        let target = max(time, stream.time)
        guard target < now else { return }
        now = target
        stateVersion &+= 1
    }
}
