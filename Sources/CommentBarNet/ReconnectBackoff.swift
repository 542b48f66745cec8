// SPDX-License-Identifier: GPL-2.0-or-later
/// Delays between reconnection attempts: exponential from `base`, capped at `cap`, with
/// jitter so that many bars do not reconnect in step. A delay is never below half its
/// step, so a server that fails at once cannot cause a busy loop.
package struct ReconnectBackoff {
    package init() {}
    package var base: Double = 0.5
    package var cap: Double = 30
    package private(set) var failures = 0

    package mutating func nextDelay<Generator: RandomNumberGenerator>(using generator: inout Generator) -> Double {
        let step = min(cap, base * Double(1 << min(failures, 16)))
        failures += 1
        return Double.random(in: (step / 2)...step, using: &generator)
    }

    package mutating func nextDelay() -> Double {
        var generator = SystemRandomNumberGenerator()
        return nextDelay(using: &generator)
    }

    package mutating func reset() { failures = 0 }
}
