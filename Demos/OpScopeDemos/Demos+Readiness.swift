import Foundation
import OperationBridge

extension Demos {
    /// What `isReady` means and how it goes wrong: readiness of the program's own (a gate) told
    /// to the queue and not told, and `removeDependency` of an unfinished dependency, which on
    /// Linux leaves the operation not ready for good.
    static let readiness = Demo(
        name: "readiness",
        summary: "isReady: a condition of the operation's own, told to the queue or not; removeDependency before the finish",
        // Short enough to be read whole under the title at 80 columns: the lesson is its end.
        caption: "isReady = dependencies finished AND its own condition; tell the queue when that changes"
    ) { monitor, pace in
        let handle = DemoHandle()
        let sync = ObservedOperationQueue(monitor: monitor, name: "sync", maxConcurrentOperationCount: 2)
        let auth = ObservedOperationQueue(monitor: monitor, name: "auth")
        handle.keep(sync, auth)
        // 1. The right way, over and over: each upload waits for "online" (its gate), which
        //    opens within a second, with the KVO notification; the queue starts it at once.
        let upload: @Sendable () -> Void = {
            guard sync.operationCount < 8 else { return }
            let gated = GatedOperation("upload-when-online-\(number())", seconds: pace.seconds(0.8), notifies: true)
            sync.addOperation(gated)
            DispatchQueue.global().asyncAfter(deadline: .now() + pace.seconds(0.6)) { gated.openGate() }
        }
        // 2. The mistake: the gate opens without the notification. isReady reads true, the
        //    queue still has it as not ready, and nothing else happens on `auth` to make it ask
        //    again: it never starts.
        let untold = GatedOperation("refresh-token", seconds: pace.seconds(0.5), notifies: false)
        auth.addOperation(untold)
        DispatchQueue.global().asyncAfter(deadline: .now() + pace.seconds(1)) { untold.openGate() }
        // 3. removeDependency while the dependency runs: on Linux the count Foundation keeps
        //    is not lowered, so the operation stays not ready for good, with no dependency left.
        let download = BusyOperation("download-update", seconds: pace.seconds(3))
        let apply = BusyOperation("apply-update", seconds: pace.seconds(0.5))
        apply.addDependency(download)
        sync.addOperations([download, apply], waitUntilFinished: false)
        DispatchQueue.global().asyncAfter(deadline: .now() + pace.seconds(1)) { apply.removeDependency(download) }
        try? monitor.catalog.register("gated", summary: "an operation whose gate opens after 1 s, told to the queue", queue: sync) { _ in
            let gated = GatedOperation("gated-x\(number())", seconds: pace.seconds(0.5), notifies: true)
            DispatchQueue.global().asyncAfter(deadline: .now() + pace.seconds(1)) { gated.openGate() }
            return gated
        }
        try? monitor.catalog.register("untold", summary: "an operation whose gate opens after 1 s, not told to the queue", queue: auth) { _ in
            let gated = GatedOperation("untold-x\(number())", seconds: pace.seconds(0.5), notifies: false)
            DispatchQueue.global().asyncAfter(deadline: .now() + pace.seconds(1)) { gated.openGate() }
            return gated
        }
        upload()
        handle.every(pace.seconds(1.5), upload)
        return handle
    }
}
