// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo

/// An emote's decoded picture: one frame, or an animation's frames with their delays
/// (seconds). Made once off the render path and never changed, so it may cross threads.
public final class EmoteArt: @unchecked Sendable {
    let frames: [ImageSurface]
    let delays: [Double]
    /// One loop of the animation, in seconds (0 for a still picture).
    let duration: Double

    init(frames: [ImageSurface], delays: [Double]) {
        self.frames = frames
        self.delays = delays
        duration = frames.count > 1 ? delays.reduce(0, +) : 0
    }

    /// A drawn picture for benchmarks (no files, no network): a face, `frames` frames of 100 ms.
    public static func sample(frames count: Int, size: Int = 56) -> EmoteArt {
        let frames = (0..<max(count, 1)).map { index -> ImageSurface in
            let image = ImageSurface(width: size, height: size)
            image.withContext { cr in
                RGBA(1, 0.3 + 0.15 * Double(index % 4), 0.3, 1).setSource(cr)
                cairo_arc(cr, Double(size) / 2, Double(size) / 2, Double(size) * 0.45, 0, 2 * Double.pi)
                cairo_fill(cr)
            }
            return image
        }
        return EmoteArt(frames: frames, delays: Array(repeating: 0.1, count: frames.count))
    }

    var isAnimated: Bool { frames.count > 1 && duration > 0 }
    var width: Int { frames.first?.width ?? 1 }
    var height: Int { frames.first?.height ?? 1 }
    /// Pixel bytes held: what the store's cap counts.
    var bytes: Int { frames.reduce(0) { $0 + $1.stride * $1.height } }

    /// The frame shown at `time` (seconds, any origin): the animation loops.
    func frameIndex(at time: Double) -> Int {
        guard isAnimated, time.isFinite else { return 0 }
        var position = time.truncatingRemainder(dividingBy: duration)
        if position < 0 { position += duration }
        for (index, delay) in delays.enumerated() {
            if position < delay { return index }
            position -= delay
        }
        return frames.count - 1
    }
}
