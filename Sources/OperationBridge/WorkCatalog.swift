import Foundation
import OperationEvents

/// Named templates of work that the dashboard can add while the program runs (the `a` key and
/// `:add NAME [xN] [after ID,...] [qos=...] [priority=...]`).
///
/// A template is a factory for one operation and the queue it goes to by default. The catalog
/// holds queues weakly: registering a template never keeps a queue alive.
public final class WorkCatalog: @unchecked Sendable {
    // Safety: `templates` is guarded by `lock`; factories are called outside it.

    struct Template {
        let name: String
        let summary: String
        weak var queue: OperationQueue?
        let make: @Sendable (Int) -> Operation
    }

    private let lock = NSLock()
    private var templates: [Template] = []

    init() {}

    /// Registers (or replaces) a template. `make` receives the index of the operation within one
    /// request (0 ..< count) and returns a fresh operation that is in no queue yet.
    ///
    /// - Throws: `CommandError.invalidArgument` if `name` is empty or contains whitespace
    ///   (`:add NAME` could not name it).
    public func register(
        _ name: String, summary: String, queue: OperationQueue,
        make: @escaping @Sendable (_ index: Int) -> Operation
    ) throws {
        guard !name.isEmpty, !name.contains(where: \.isWhitespace) else {
            throw CommandError(.invalidArgument, "a work template needs a name without spaces; got '\(name)'")
        }
        let template = Template(name: name, summary: summary, queue: queue, make: make)
        lock.lock()
        defer { lock.unlock() }
        if let index = templates.firstIndex(where: { $0.name == name }) {
            templates[index] = template
        } else {
            templates.append(template)
        }
    }

    /// Removes a template; true if it existed.
    @discardableResult
    public func unregister(_ name: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        let before = templates.count
        templates.removeAll { $0.name == name }
        return templates.count != before
    }

    /// The registered template names, in registration order.
    public var names: [String] {
        lock.lock()
        defer { lock.unlock() }
        return templates.map(\.name)
    }

    func template(named name: String) -> Template? {
        lock.lock()
        defer { lock.unlock() }
        return templates.first { $0.name == name }
    }

    func listing(queueID: (OperationQueue) -> QueueID?) -> [WorkTemplateInfo] {
        lock.lock()
        let snapshot = templates
        lock.unlock()
        return snapshot.map { template in
            WorkTemplateInfo(name: template.name, summary: template.summary, queue: template.queue.flatMap(queueID))
        }
    }
}
