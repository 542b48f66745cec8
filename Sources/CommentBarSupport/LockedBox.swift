// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// A `Mutex` that several owners share: a class holds it, so closures made before their owner
/// is whole (the events an owner gives to a part it builds in its `init`) can hold it too.
public final class LockedBox<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    public func withLock<Result: Sendable>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        try mutex.withLock(body)
    }
}
