// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames
import CommentBarRender
import FoundationEssentials

/// `commentbar bench --only enter|fade|ticker`: what the looks' moving frames cost (issue 38).
/// An enter or a fade frame rewrites one row's rectangle on the last frame, so it must cost no
/// more than copying the whole frame once (the memcpy floor, measured here too); the ticker's
/// frame is what 30 a second cost the renderer.
extension Bench {
    func measureLooks(width: Int, height: Int, corpus: [ChatLine], into result: inout Result) {
        let floor = memcpyFloor(width: width, height: height)
        if wants(.enter) {
            let enter = motionFrames(#"{"enter":"fade"}"#, width: width, height: height, corpus: corpus,
                                     every: 1.0, frames: (1...7).map { Double($0) / 30 })
            result.enter_frame_ms = enter
            result.enter_frame_vs_memcpy = enter / floor
        }
        if wants(.fade) {
            let fade = motionFrames(#"{"fade_after":1}"#, width: width, height: height, corpus: corpus,
                                    every: 2.0, frames: (1...14).map { 1 + Double($0) / 30 })
            result.fade_frame_ms = fade
            result.fade_frame_vs_memcpy = fade / floor
        }
        if wants(.ticker) {
            let ticker = tickerFrames(width: width, height: height, corpus: corpus)
            (result.ticker_frame_ms, result.ticker_frame_p90_ms) = ticker
            result.ticker_cpu_percent_at_30fps = ticker.median * 30 / 1000 * 100
        }
    }

    private func settings(_ json: String, width: Int, height: Int) -> BarSettings {
        var settings = (try? BarSettings.decode(json: Data(json.utf8))) ?? BarSettings()
        settings.width = width
        settings.height = height
        return settings
    }

    /// Milliseconds (median) of the frames at `frames` seconds after each new comment (one each
    /// `every` seconds): the rows moving, never the new comment's own frame.
    private func motionFrames(_ json: String, width: Int, height: Int, corpus: [ChatLine], every: Double,
                              frames: [Double]) -> Double {
        let renderer = BarRenderer(settings: settings(json, width: width, height: height), width: width, height: height)
        let pool = MemoryFramePool(width: width, height: height)
        var state = BarState()
        var samples: [Double] = []
        let clock = ContinuousClock()
        let rounds = max(10, iterations / frames.count)
        for round in 0..<(rounds + 3) {
            let start = 1_700_000_000 + Double(round) * every
            var line = corpus[round % corpus.count]
            line.id = "look\(round)"
            state.apply(.comment(line))
            renderer.prepare(state)
            renderer.render(state, now: start, into: pool)
            for offset in frames {
                var drawn = false
                let spent = milliseconds(clock.measure { drawn = renderer.render(state, now: start + offset, into: pool) })
                // The first rounds warm the caches up.
                if round >= 3, drawn { samples.append(spent) }
            }
        }
        return samples.isEmpty ? 0 : percentiles(samples).median
    }

    /// The ticker at 30 frames a second with a comment a second: each frame's milliseconds.
    private func tickerFrames(width: Int, height: Int, corpus: [ChatLine]) -> Figure {
        let renderer = BarRenderer(settings: settings(#"{"theme":"ticker"}"#, width: width, height: height),
                                   width: width, height: height)
        let pool = MemoryFramePool(width: width, height: height)
        var state = BarState()
        var samples: [Double] = []
        let clock = ContinuousClock()
        for frame in 0..<(iterations + 90) {
            let now = 1_700_000_000 + Double(frame) / 30
            if frame % 30 == 0 {
                var line = corpus[(frame / 30) % corpus.count]
                line.id = "tick\(frame)"
                state.apply(.comment(line))
                renderer.prepare(state)
            }
            var drawn = false
            let spent = milliseconds(clock.measure { drawn = renderer.render(state, now: now, into: pool) })
            if frame >= 90, drawn { samples.append(spent) }
        }
        return samples.isEmpty ? (0, 0) : percentiles(samples)
    }

    /// Milliseconds (median) to copy one frame of this size: the floor a frame is measured against.
    private func memcpyFloor(width: Int, height: Int) -> Double {
        let pool = MemoryFramePool(width: width, height: height)
        let source = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 64)
        source.initializeMemory(as: UInt8.self, repeating: 0x5A, count: width * height * 4)
        defer { source.deallocate() }
        return time { pool.backBuffer().pixels.copyMemory(from: source, byteCount: width * height * 4) }.median
    }
}
