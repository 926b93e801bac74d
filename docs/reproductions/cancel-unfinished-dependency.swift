// Foundation on Linux, no OpScope: cancel a dependent whose dependency has not finished and keep
// no reference to it. Crashes when the dependency finishes. Run with the argument 'safe' to
// remove the dependency before cancelling: no crash.
//   swiftc -O cancel-unfinished-dependency.swift -o repro && ./repro && ./repro safe
import Foundation
// Plain Foundation: cancel a dependent whose dependency has not finished, and keep no reference.
let q1 = OperationQueue()
q1.maxConcurrentOperationCount = 1
let q2 = OperationQueue()
for round in 0..<20000 {
    let dependency = BlockOperation { var x = 0; for i in 0..<2000 { x &+= i }; if x == -1 { print(x) } }
    let dependent = BlockOperation {}
    dependent.addDependency(dependency)
    if CommandLine.arguments.count > 1 { dependent.removeDependency(dependency) }
    dependent.cancel()
    q2.addOperation(dependent)
    q1.addOperation(dependency)
    if round % 5000 == 0 { print("round", round) }
}
q1.waitUntilAllOperationsAreFinished()
q2.waitUntilAllOperationsAreFinished()
print("done without a crash")
