// SPDX-License-Identifier: GPL-2.0-or-later
/// Delays between attempts after failures: `base` doubling per failure up to `cap`, with jitter
/// (a delay lies between half its step and the step) so that many bars or helpers do not retry
/// in step, and is never below half a step, so a peer that fails at once cannot cause a busy
/// loop. The one backoff of the renderer: feed reconnects, helper restarts, speech engines.
public struct Backoff: Sendable, Equatable {
    public var base: Duration
    public var cap: Duration
    /// Whether delays are drawn between half a step and the step (false: exactly the step,
    /// for waits a log line or a test names).
    public var jitter: Bool
    public private(set) var failures = 0

    public init(base: Duration = .milliseconds(500), cap: Duration = .seconds(30), jitter: Bool = true) {
        self.base = base
        self.cap = cap
        self.jitter = jitter
    }

    /// The wait before the next attempt, counting one more failure.
    public mutating func nextDelay<Generator: RandomNumberGenerator>(using generator: inout Generator) -> Duration {
        let step = min(cap, base * (1 << min(failures, 16)))
        failures += 1
        guard jitter else { return step }
        let stepSeconds = step / .seconds(1)
        return .seconds(Double.random(in: (stepSeconds / 2)...stepSeconds, using: &generator))
    }

    public mutating func nextDelay() -> Duration {
        var generator = SystemRandomNumberGenerator()
        return nextDelay(using: &generator)
    }

    /// It worked (or ran well long enough): the next failure starts from `base` again.
    public mutating func reset() { failures = 0 }
}
