// SPDX-License-Identifier: GPL-2.0-or-later
/// When the frame loop may publish: never more than `fps` frames in any one second, frames
/// about `1/fps` apart when every frame is wanted, and a frame at once when one is wanted
/// after a quiet moment — a comment right after a clock tick's frame must not wait a whole
/// interval for its own (OBS shows the newest frame at its next tick; a frame held back one
/// interval is a frame late on screen).
///
/// The spacing is the generic cell rate algorithm (a token bucket of one frame more than
/// the steady rate): a frame is allowed one interval early, and the frames after it are
/// spaced by the interval again. The one-second window is a hard cap on top (the bucket
/// alone would allow `fps + 1` in a second). Nothing here asks for frames: a frame is made
/// only when something visible changed, and only frames made are recorded. Times are
/// seconds of one monotonic clock the caller gives (tests give their own).
struct FramePacer: Sendable {
    /// Frames a second at most (the `fps` setting).
    let fps: Int
    var interval: Double { 1 / Double(fps) }
    /// When the next frame would be on time at the steady rate.
    private var theoreticalNext = -Double.infinity
    /// When the last `fps` frames were made, oldest first (a ring once full).
    private var recent: [Double] = []
    private var oldest = 0

    init(fps: Int) {
        self.fps = max(fps, 1)
        recent.reserveCapacity(self.fps)
    }

    /// The earliest time a frame may be made, at or after `now`.
    func earliest(now: Double) -> Double {
        var allowed = theoreticalNext - interval
        // The window: the frame `fps` frames back must be a second old (and a microsecond, so
        // that no clock's rounding can see `fps + 1` frames in one second).
        if recent.count == fps { allowed = max(allowed, recent[oldest] + 1.000_001) }
        return max(now, allowed)
    }

    /// A frame was made at `time` (never earlier than `earliest` said).
    mutating func made(at time: Double) {
        theoreticalNext = max(theoreticalNext, time) + interval
        if recent.count < fps {
            recent.append(time)
        } else {
            recent[oldest] = time
            oldest = (oldest + 1) % fps
        }
    }
}
