/// What a dashboard needs from a monitor: events, snapshots, commands and the work catalog.
///
/// The in-process `OperationMonitor` implements it; a recording player or a remote attachment
/// can implement it too, so the model and the views never depend on the bridge itself.
public protocol MonitorConnection: AnyObject, Sendable {
    /// Takes up to `limit` buffered events, oldest first.
    func drainEvents(limit: Int) -> EventBatch
    /// Reads the live state of everything observed.
    func snapshot() -> MonitorSnapshot
    /// Carries out a command; a refused command changes nothing.
    func perform(_ command: MonitorCommand) -> Result<CommandReceipt, CommandError>
    /// The registered work templates, for the "add work" picker.
    var workTemplates: [WorkTemplateInfo] { get }
    /// The current time on the monitor's clock (nanoseconds), so durations agree with event times.
    func now() -> UInt64
}
