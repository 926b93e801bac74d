import DashboardModel
import OperationEvents

/// The readiness demo's `refresh-token` as a script: added to queue q1 'auth' (no fixed limit)
/// not ready, then ready (its gate opened without telling the queue), and never started.
/// `model` is that moment; `later` is past `readyNotStartedGrace` and a second more, when the
/// queue has had room for it long enough to say it does not see it ready.
public func untoldGateScript() -> (model: DashboardModel, later: DashboardModel) {
    var script = EventScript()
    script.queue(1, "auth")
    script.add(1, queue: 1, "refresh-token", ready: false)
    script.ready(1)
    let model = script.model()
    var later = model
    later.advance(to: script.time + model.configuration.readyNotStartedGrace + 1_000_000_000)
    return (model, later)
}
