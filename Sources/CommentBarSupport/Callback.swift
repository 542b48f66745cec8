// SPDX-License-Identifier: GPL-2.0-or-later

/// A closure to keep in a `Mutex` (`Mutex<Callback<T>?>`), never the closure itself: a closure
/// that is a `Mutex`'s value is wrapped in two more reabstraction thunks each time `withLock` hands
/// it out (its `inout` value goes to the generic form and back), so every call walks all the
/// thunks of the calls before: quadratic, and in the end a stack overflow (seen in the frame
/// loop's alarm at 30 frames a second, and in the boards' watchers, called on every change). A
/// struct's field is not converted.
public struct Callback<Argument>: Sendable {
    public let call: @Sendable (Argument) -> Void

    public init(_ call: @escaping @Sendable (Argument) -> Void) {
        self.call = call
    }
}
