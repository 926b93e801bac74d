/// A first-in, first-out list that reuses its storage: an array read from a moving head,
/// compacted when the consumed part dominates (amortised O(1) per element, no Foundation, no
/// recursion). The sequencer's hold order and the stream state's finish order.
struct FIFO<Element: Sendable>: Sendable {
    private var items: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }
    /// Elements waiting.
    var count: Int { items.count - head }
    /// The oldest element.
    var first: Element? { isEmpty ? nil : items[head] }
    /// The elements, oldest first.
    var elements: ArraySlice<Element> { items[head...] }

    /// The element `offset` places behind the oldest, if there are that many.
    func peek(_ offset: Int) -> Element? {
        precondition(offset >= 0, "peek looks behind the oldest, never before it")
        let index = head + offset
        return index < items.count ? items[index] : nil
    }

    mutating func append(_ item: Element) { items.append(item) }

    /// Removes the oldest element; the list must not be empty.
    @discardableResult
    mutating func removeFirst() -> Element {
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: items.count <= 1024)
            head = 0
        } else if head >= 1024, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }

    /// Replaces the contents.
    mutating func replace(with elements: [Element]) {
        items = elements
        head = 0
    }
}
