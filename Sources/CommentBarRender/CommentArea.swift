// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFrames
import CommentBarCore

/// Where a layout draws its comments, and how: rows stacked from the newest edge (`StackedRows`,
/// the bar and the box) or a line the comments travel along (`TickerArea`). The renderer works
/// out what the frame shows (`FrameContent`) and keeps the header; the area lays out its
/// comments, decides whether a frame is due, draws it into the pool's back buffer on the last
/// one or from nothing, and says when it next changes by itself.
protocol CommentArea: AnyObject {
    /// Lays out what `state` adds before the frame's turn; the frame that shows it only places it.
    func prepare(_ state: BarState)

    /// Draws the frame for `state` at `now` and publishes it; false, having drawn nothing, when
    /// it would look as the last one does. `changes`: what changed since the last frame.
    func render(_ state: BarState, content: FrameContent, changes: FrameChanges, now: Double,
                into pool: any FramePool) -> Bool

    /// When the area next looks different by itself after `now` (`step`: the next frame's time),
    /// or nil when it never will.
    func nextChange(after now: Double, step: Double) -> Double?

    /// Whether the last frame shows something moving (a row entering or fading, an animated emote,
    /// the ticker).
    var showsAnimation: Bool { get }

    /// The comments of the last frame and where they are (the test that nothing overlaps).
    var elements: [(name: String, rect: PixelRect)] { get }

    /// A picture a row waits for has arrived or failed: those rows are laid out again.
    func picturesArrived()

    /// The next frame is drawn from nothing (another layout, the caches dropped).
    func forgetLastFrame()

    /// The rows' style changed: every comment's image is laid out again.
    func forgetImages()
}
