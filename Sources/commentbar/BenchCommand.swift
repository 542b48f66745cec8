// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import ArgumentParser
import CommentBarCore
import CommentBarFeeds
import CommentBarFrames
import CommentBarRender
import CommentBarServices
import FoundationEssentials

/// `commentbar bench`: what a frame costs, layered against a full redraw and
/// against the floor of copying one frame.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure milliseconds per frame: full redraw, new comment, clock tick, unchanged, memcpy.")

    @Flag(help: "Print a JSON list, one object per size.") var json = false
    @Option(help: "Measured frames per case.") var iterations: Int = 300
    @Option(help: "A bar size to measure, WxH (repeatable; default 1280x360 and 1920x1080).") var size: [String] = []
    @Option(help: """
        Measure only this case (repeatable; default all): \(Case.allCases.map(\.rawValue).joined(separator: ", ")). \
        One case alone is what a profiler (valgrind --tool=callgrind) should run.
        """) var only: [Case] = []

    enum Case: String, CaseIterable, ExpressibleByArgument {
        case full, new, clock, unchanged, memcpy, sustained, filters, emotes
        /// The looks (issue 38): a row entering, a row fading, the ticker moving (`LookBenchmark`).
        case enter, fade, ticker
    }

    /// One size's figures; a case not measured (`--only`) is left out of the JSON.
    struct Result: Encodable {
        var width: Int
        var height: Int
        var full_redraw_ms: Double?
        var full_redraw_p90_ms: Double?
        /// A new comment's frame, its row laid out when it arrived (what a frame costs when due).
        var new_comment_ms: Double?
        var new_comment_p90_ms: Double?
        /// Laying out and drawing the new row's image when it arrives (`BarRenderer.prepare`).
        var new_comment_layout_ms: Double?
        var new_comment_layout_p90_ms: Double?
        /// Both: what one new comment costs the renderer in all.
        var new_comment_total_ms: Double?
        var new_comment_total_p90_ms: Double?
        var clock_tick_ms: Double?
        var clock_tick_p90_ms: Double?
        var unchanged_ms: Double?
        var unchanged_p90_ms: Double?
        var memcpy_ms: Double?
        var memcpy_p90_ms: Double?
        var comments_per_second: Double?
        var new_comment_vs_memcpy: Double?
        var clock_tick_vs_memcpy: Double?
        var unchanged_frames_drawn: Int?
        /// Filters and highlights on one comment: bots, commands, 10,000 NG words (target ≤ 50 µs).
        var filter_us_per_comment: Double?
        /// A new comment with three emotes (one animated, always on screen) (target ≤ 0.5 ms at 1280x360).
        var emote_new_comment_ms: Double?
        var emote_new_comment_p90_ms: Double?
        /// Laying out the emote row when it arrives (the frame above is after it).
        var emote_new_comment_layout_ms: Double?
        /// An animation step: the animated emotes on screen redrawn in their rectangles.
        var emote_animation_frame_ms: Double?
        /// A frame while a new row fades in (`enter` fade), and while a row fades out (`fade_after`),
        /// each against a memcpy of the frame (target: at most 1.0x).
        var enter_frame_ms: Double?
        var enter_frame_vs_memcpy: Double?
        var fade_frame_ms: Double?
        var fade_frame_vs_memcpy: Double?
        /// A ticker frame (the `ticker` layout moving, one comment a second), and what 30 of them
        /// a second cost in CPU (% of a core, the renderer's frames alone).
        var ticker_frame_ms: Double?
        var ticker_frame_p90_ms: Double?
        var ticker_cpu_percent_at_30fps: Double?

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    func validate() throws {
        guard (10...100_000).contains(iterations) else { throw ValidationError("--iterations must be 10...100000") }
        _ = try sizes()
    }

    /// The sizes asked for, each checked.
    private func sizes() throws -> [(width: Int, height: Int)] {
        guard !size.isEmpty else { return [(1280, 360), (1920, 1080)] }
        return try size.map { text in
            let parts = text.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, (16...4096).contains(parts[0]), (16...4096).contains(parts[1]) else {
                throw ValidationError("--size \(text): expected WxH, each 16...4096")
            }
            return (parts[0], parts[1])
        }
    }

    func wants(_ measured: Case) -> Bool { only.isEmpty || only.contains(measured) }

    func run() throws {
        // The demo's chat, from the registry (the CLI imports no platform).
        let demo = try ServiceRegistry.product.makeTimeline(service: "demo", streamID: "")
        let results = try sizes().map { measure(demo, width: $0.width, height: $0.height) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(results)
            print(String(decoding: data, as: UTF8.self))
            return
        }
        for r in results {
            print("\(r.width)x\(r.height), \(iterations) frames per case, median and p90:")
            func row(_ label: String, _ median: Double?, _ p90: Double?, _ note: String = "") {
                guard let median, let p90 else { return }
                print("  \(label + String(repeating: " ", count: max(0, 19 - label.count)))\(fixed(median, 8, 3)) ms (p90 \(fixed(p90, 0, 3)))\(note)")
            }
            func ratio(_ value: Double?) -> String { value.map { "   \(fixed($0, 0, 2))x memcpy" } ?? "" }
            row("full redraw", r.full_redraw_ms, r.full_redraw_p90_ms)
            row("new comment", r.new_comment_ms, r.new_comment_p90_ms, ratio(r.new_comment_vs_memcpy))
            row("  its row laid out", r.new_comment_layout_ms, r.new_comment_layout_p90_ms, "   on arrival")
            row("  both", r.new_comment_total_ms, r.new_comment_total_p90_ms)
            row("clock tick", r.clock_tick_ms, r.clock_tick_p90_ms, ratio(r.clock_tick_vs_memcpy))
            row("unchanged", r.unchanged_ms, r.unchanged_p90_ms, r.unchanged_frames_drawn.map { "   frames drawn: \($0)" } ?? "")
            row("memcpy (floor)", r.memcpy_ms, r.memcpy_p90_ms)
            if let rate = r.comments_per_second { print("  sustained          \(Int(rate)) comments/s, one frame each") }
            if let filters = r.filter_us_per_comment {
                print("  filters            \(fixed(filters, 8, 2)) µs per comment (10,000 NG words)")
            }
            row("emote comment", r.emote_new_comment_ms, r.emote_new_comment_p90_ms,
                "   3 emotes, one animated; \(fixed(r.emote_new_comment_layout_ms ?? 0, 0, 3)) ms laid out on arrival")
            if let step = r.emote_animation_frame_ms { print("  emote animation    \(fixed(step, 8, 3)) ms per animation step") }
            row("enter frame", r.enter_frame_ms, r.enter_frame_ms, ratio(r.enter_frame_vs_memcpy))
            row("fade frame", r.fade_frame_ms, r.fade_frame_ms, ratio(r.fade_frame_vs_memcpy))
            row("ticker frame", r.ticker_frame_ms, r.ticker_frame_p90_ms,
                r.ticker_cpu_percent_at_30fps.map { "   \(fixed($0, 0, 2)) % of a core at 30 fps" } ?? "")
        }
    }

    private func measure(_ demo: FeedTimeline, width: Int, height: Int) -> Result {
        var result = Result(width: width, height: height)
        var settings = BarSettings()
        settings.width = width
        settings.height = height
        let pool = MemoryFramePool(width: width, height: height)
        let renderer = BarRenderer(settings: settings, width: width, height: height)
        var (state, now) = demo.state(at: 30)
        let corpus = demo.entries.compactMap { entry -> ChatLine? in
            if case .comment(let line) = entry.event { return line }
            return nil
        }
        var serial = 0
        func addComment() {
            serial += 1
            var line = corpus[serial % corpus.count]
            line.id = "bench\(serial)"
            state.apply(.comment(line))
        }
        renderer.render(state, now: now, into: pool)

        if wants(.full) {
            let full = time { renderer.invalidateCaches(); renderer.render(state, now: now, into: pool) }
            (result.full_redraw_ms, result.full_redraw_p90_ms) = full
        }
        if wants(.new) {
            let new = time(arrival: { addComment(); renderer.prepare(state) }) { renderer.render(state, now: now, into: pool) }
            (result.new_comment_ms, result.new_comment_p90_ms) = new.frame
            (result.new_comment_layout_ms, result.new_comment_layout_p90_ms) = new.arrival
            (result.new_comment_total_ms, result.new_comment_total_p90_ms) = new.total
        }
        if wants(.clock) {
            let tick = time { now += 1; renderer.render(state, now: now, into: pool) }
            (result.clock_tick_ms, result.clock_tick_p90_ms) = tick
        }
        if wants(.unchanged) {
            var drawn = 0
            let unchanged = time { if renderer.render(state, now: now, into: pool) { drawn += 1 } }
            (result.unchanged_ms, result.unchanged_p90_ms) = unchanged
            result.unchanged_frames_drawn = drawn
        }
        if wants(.memcpy) {
            let source = UnsafeMutableRawPointer.allocate(byteCount: width * height * 4, alignment: 64)
            source.initializeMemory(as: UInt8.self, repeating: 0x5A, count: width * height * 4)
            defer { source.deallocate() }
            let floor = time { pool.backBuffer().pixels.copyMemory(from: source, byteCount: width * height * 4) }
            (result.memcpy_ms, result.memcpy_p90_ms) = floor
            result.new_comment_vs_memcpy = result.new_comment_ms.map { $0 / floor.median }
            result.clock_tick_vs_memcpy = result.clock_tick_ms.map { $0 / floor.median }
        }
        if wants(.sustained) {
            let start = ContinuousClock.now
            let sustained = 500
            for _ in 0..<sustained {
                addComment()
                renderer.prepare(state)
                renderer.render(state, now: now, into: pool)
            }
            result.comments_per_second = Double(sustained) / seconds(since: start)
        }
        if wants(.filters) { result.filter_us_per_comment = filterCost(corpus) }
        if wants(.enter) || wants(.fade) || wants(.ticker) { measureLooks(width: width, height: height, corpus: corpus, into: &result) }
        if wants(.emotes) {
            let emotes = emoteCost(width: width, height: height, corpus: corpus)
            (result.emote_new_comment_ms, result.emote_new_comment_p90_ms) = emotes.newComment.frame
            result.emote_new_comment_layout_ms = emotes.newComment.arrival.median
            result.emote_animation_frame_ms = emotes.animationStep
        }
        return result
    }

    private func seconds(since start: ContinuousClock.Instant) -> Double {
        (ContinuousClock.now - start).inSeconds
    }

    /// New rows of an emote-heavy chat (3 emotes a comment, an animated one always on screen), and
    /// the animation steps in between, with the pictures already decoded (as after their first use).
    private func emoteCost(width: Int, height: Int, corpus: [ChatLine]) -> (newComment: Phases, animationStep: Double) {
        var settings = BarSettings()
        settings.width = width
        settings.height = height
        let emotes = EmoteImages()
        for (url, frames) in [("https://bench/still", 1), ("https://bench/animated", 8)] {
            _ = emotes.begin(url)
            emotes.finish(url, .ready(EmoteArt.sample(frames: frames)))
        }
        let pool = MemoryFramePool(width: width, height: height)
        let renderer = BarRenderer(settings: settings, width: width, height: height, emotes: emotes)
        var state = BarState()
        var serial = 0
        var now = 1_700_000_000.05
        func addComment() {
            serial += 1
            let text = "Kappa \(corpus[serial % corpus.count].text) PogChamp catJAM"
            let scalars = Array(text.unicodeScalars)
            func range(of word: String, from: Int) -> Range<Int> {
                let count = word.unicodeScalars.count
                let start = (from...(scalars.count - count)).first { String(String.UnicodeScalarView(scalars[$0..<$0 + count])) == word } ?? 0
                return start..<start + count
            }
            let kappa = range(of: "Kappa", from: 0), pog = range(of: "PogChamp", from: kappa.upperBound)
            let cat = range(of: "catJAM", from: pog.upperBound)
            state.apply(.comment(ChatLine(id: "emote\(serial)", user: "viewer\(serial % 7)", text: text, emotes: [
                Emote(range: kappa, name: "Kappa", url: "https://bench/still"),
                Emote(range: pog, name: "PogChamp", url: "https://bench/still"),
                Emote(range: cat, name: "catJAM", url: "https://bench/animated"),
            ])))
        }
        for _ in 0..<10 { addComment() }
        renderer.render(state, now: now, into: pool)
        let newComment = time(arrival: { addComment(); renderer.prepare(state) }) { renderer.render(state, now: now, into: pool) }
        var steps = 0
        let start = ContinuousClock.now
        for _ in 0..<iterations {
            now += 0.1
            if renderer.render(state, now: now, into: pool) { steps += 1 }
        }
        return (newComment, steps > 0 ? seconds(since: start) / Double(steps) * 1000 : 0)
    }

    /// Microseconds one comment spends in the filters with every filter on and 10,000 NG words.
    private func filterCost(_ corpus: [ChatLine]) -> Double {
        let filters = ChatFilters(botNames: ["helperbot"], ngWords: (0..<10_000).map { "ngword\($0)" } + ["ばか"],
                                  highlightNames: ["streamer", "さくら"])
        let rounds = 20_000
        var kept = 0
        let start = ContinuousClock.now
        for index in 0..<rounds {
            var line = corpus[index % corpus.count]
            line.text += index % 10 == 0 ? " ngword\(index % 10_000)" : ""
            if filters.apply(line, isFirstMessage: index % 7 == 0) != nil { kept += 1 }
        }
        return kept >= 0 ? seconds(since: start) / Double(rounds) * 1e6 : 0
    }

    /// The work a case times, never inlined, so a profiler can count the measured calls alone
    /// (`iterations` of them; the warm-up's first-time costs are `warmUp`'s):
    /// `valgrind --tool=callgrind --toggle-collect='*measuredWork*' commentbar bench --only new --size 1280x360`.
    /// Each counts its calls in its own variable, so no two are the same code that the optimizer
    /// would merge under one name.
    @inline(never)
    private func measuredWork(_ body: () -> Void) {
        body()
        Self.calls.work &+= 1
    }

    @inline(never)
    private func warmUp(_ body: () -> Void) {
        body()
        Self.calls.warmUp &+= 1
    }

    /// A comment's arrival (its row laid out), apart from its frame (`measuredWork`).
    @inline(never)
    private func measuredArrival(_ body: () -> Void) {
        body()
        Self.calls.arrival &+= 1
    }

    nonisolated(unsafe) private static var calls = (work: 0, warmUp: 0, arrival: 0)

    /// `value` with `decimals` digits after the point, right-aligned in `width` (printf's %W.Df).
    private func fixed(_ value: Double, _ width: Int, _ decimals: Int) -> String {
        var scaled = value
        for _ in 0..<decimals { scaled *= 10 }
        let digits = String(Int(scaled.rounded()))
        let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
        let text = decimals == 0 ? padded : padded.dropLast(decimals) + "." + padded.suffix(decimals)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    typealias Figure = (median: Double, p90: Double)
    typealias Phases = (arrival: Figure, frame: Figure, total: Figure)

    /// Milliseconds of a comment's two phases, each call: what happens when it arrives (its row
    /// laid out) and its frame; median and 90th percentile of each and of both, after a warm-up.
    func time(arrival: () -> Void, frame: () -> Void) -> Phases {
        for _ in 0..<max(10, iterations / 10) { warmUp { arrival(); frame() } }
        let clock = ContinuousClock()
        var arrivals: [Double] = [], frames: [Double] = [], totals: [Double] = []
        for _ in 0..<iterations {
            let first = milliseconds(clock.measure { measuredArrival(arrival) })
            let second = milliseconds(clock.measure { measuredWork(frame) })
            arrivals.append(first)
            frames.append(second)
            totals.append(first + second)
        }
        return (percentiles(arrivals), percentiles(frames), percentiles(totals))
    }

    func milliseconds(_ duration: Duration) -> Double {
        duration.inSeconds * 1e3
    }

    func percentiles(_ samples: [Double]) -> Figure {
        let sorted = samples.sorted()
        return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 9 / 10)])
    }

    /// Milliseconds per call: median and 90th percentile after a warm-up.
    func time(_ body: () -> Void) -> Figure {
        for _ in 0..<max(10, iterations / 10) { warmUp(body) }
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations { samples.append(milliseconds(clock.measure { measuredWork(body) })) }
        return percentiles(samples)
    }
}
