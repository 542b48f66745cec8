// SPDX-License-Identifier: GPL-2.0-or-later
/// How long the YouTube feed waits before it asks again, by what went wrong. Consecutive
/// problems back off; a chat that went live starts over.
struct RetryPace {
    /// A channel with no live stream is checked this often.
    static let channelCheck: Duration = .seconds(60)
    /// After a 429 the feed waits at least this long.
    static let afterRateLimit: Double = 30

    private var problems = 0

    mutating func reset() { problems = 0 }

    /// A scheduled stream that has not started: every few seconds at first, then each minute.
    mutating func notStarted() -> Duration { step(from: 5, cap: 60) }

    /// Private, removed, chat off, an over stream, a page without data: slowly.
    mutating func unavailable() -> Duration { step(from: 60, cap: 300) }

    /// A failed request: 429 waits ≥ 30 s and doubles; anything else backs off from 2 s.
    mutating func failed(status: Int?) -> Duration {
        status == 429 ? step(from: Self.afterRateLimit, cap: 600) : step(from: 2, cap: 60)
    }

    /// `base · 2^problems`, capped, with up to +25 % jitter so bars do not poll in step.
    private mutating func step(from base: Double, cap: Double) -> Duration {
        let seconds = min(cap, base * Double(1 << min(problems, 10)))
        problems += 1
        return .milliseconds(Int(seconds * Double.random(in: 1.0...1.25) * 1000))
    }

    static func shown(_ delay: Duration) -> String {
        "\(delay.components.seconds) s"
    }
}
