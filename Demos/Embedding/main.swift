// The embedding example from README.md, line for line: observe your queues, register work the
// dashboard can add, and show the dashboard until q (or print the JSON report when there is no
// terminal, e.g. in CI).
import Foundation
import OpScope

let monitor = OperationMonitor()
let images = ObservedOperationQueue(monitor: monitor, name: "images", maxConcurrentOperationCount: 2)
try monitor.catalog.register("resize", summary: "resize one image (0.5 s)", queue: images) { index in
    BlockOperation { Thread.sleep(forTimeInterval: 0.5) }
}
for _ in 0..<8 { images.addOperation { Thread.sleep(forTimeInterval: 0.5) } }

if isatty(STDOUT_FILENO) == 1 {
    try OpScopeDashboard.run(monitor)                        // until q
} else {
    let report = OpScopeDashboard.report(monitor)            // the state, in-process
    print(report.jsonString())
}
