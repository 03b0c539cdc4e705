extension RandomAccessCollection {
    /// How many elements from the start satisfy `belongs`, found by bisection: `belongs` must
    /// hold for a prefix of the collection and for nothing after it (a key that rises, asked
    /// "at most t?"). O(log n): a chain's link for a frame, a keyframe's segment, a page's links.
    ///
    /// - Parameter belongs: true for every element of the prefix, false for every one after.
    /// - Returns: the prefix's length, 0 to `count`.
    public func countOfPrefix(where belongs: (Element) throws -> Bool) rethrows -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if try belongs(self[index(startIndex, offsetBy: middle)]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
