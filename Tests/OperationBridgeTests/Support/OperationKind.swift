import Foundation
import OperationBridge

/// The kinds of operation a conformance scenario is written with.
enum OperationKind: String, CaseIterable, CustomStringConvertible, Sendable {
    /// Foundation's `BlockOperation`: hooked by the bridge.
    case block
    /// An app's synchronous subclass: hooked.
    case userSync
    /// OpScope's `ObservableBlockOperation`: instrumented.
    case instrumented

    var description: String { rawValue }

    func make(_ work: @escaping @Sendable () -> Void) -> Operation {
        switch self {
        case .block: BlockOperation(block: work)
        case .userSync: UserSyncOperation(work: work)
        case .instrumented: ObservableBlockOperation(block: work)
        }
    }
}
