// SPDX-License-Identifier: GPL-2.0-or-later
/// The body of an answer as it arrives, chunk by chunk (`WebFetching.open`). Iterated once, by
/// one task; a failure (a cut connection, the deadline) is thrown as a `WebFailure`.
public struct WebBodyStream: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    public struct AsyncIterator: AsyncIteratorProtocol {
        private let nextChunk: () async throws(WebFailure) -> [UInt8]?

        public init(next: @escaping () async throws(WebFailure) -> [UInt8]?) {
            nextChunk = next
        }

        public mutating func next() async throws(WebFailure) -> [UInt8]? {
            try await nextChunk()
        }
    }

    private let makeIterator: @Sendable () -> AsyncIterator

    /// `makeIterator` is called once, when the stream is iterated.
    public init(_ makeIterator: @escaping @Sendable () -> AsyncIterator) {
        self.makeIterator = makeIterator
    }

    public func makeAsyncIterator() -> AsyncIterator { makeIterator() }
}
