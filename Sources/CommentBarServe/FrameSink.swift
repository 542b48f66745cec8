// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFrames

/// Where `serve` puts its frames: a frame pool that also carries the renderer's status
/// and heartbeat to whoever shows the frames (the OBS shim, through the shared-memory
/// pool; the tests, in memory).
public protocol FrameSink: FramePool {
    /// The feed's state and its detail (a reason, a message; empty when the state says all).
    func setStatus(_ status: SinkStatus, detail: String)
    /// A heartbeat any task may call: a slow frame must not look like a hung renderer.
    func makeHeartbeat() -> @Sendable () -> Void
    /// The latency probe (always on: a store per frame): the next published frame is the first to
    /// show a row change applied at `nanoseconds` (CLOCK_MONOTONIC).
    func stampRowChange(at nanoseconds: UInt64)
}

extension FrameSink {
    /// A sink that carries no stamps (the tests' memory pool).
    public func stampRowChange(at nanoseconds: UInt64) {}
}

/// The states a sink shows (docs/pool-abi.md: status_code).
public enum SinkStatus: Sendable, Equatable {
    case starting
    case connecting
    case live
    case reconnecting
    case error
    case paused
    case waiting
    case ended
}
