// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Synchronization
import Testing

/// A closure kept in a `Mutex` through `Callback` runs at the same stack depth however often it is
/// handed out; kept bare, every `withLock` wrapped it in two more thunks, so each call ran deeper
/// (and slower) than the one before (checked: a bare closure's 1,000th call ran deeper than its first).
/// The depth is read off a local's address: no clock involved.
@Suite struct CallbackTests {
    final class Depths: Sendable {
        let seen = Mutex<[UInt]>([])
        func note() {
            var local = 0
            let address = withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
            seen.withLock { $0.append(address) }
        }
    }

    @Test func aCallbackHandedOutManyTimesRunsAtTheSameDepth() throws {
        let depths = Depths()
        let kept = Mutex<Callback<Void>?>(Callback { depths.note() })
        for _ in 0..<5_000 { kept.withLock { $0 }?.call(()) }
        let seen = depths.seen.withLock { $0 }
        let first = try #require(seen.first), last = try #require(seen.last)
        #expect(seen.count == 5_000)
        #expect(first == last, "the 5,000th call ran \(Int(first) - Int(last)) bytes deeper than the first")
    }
}
