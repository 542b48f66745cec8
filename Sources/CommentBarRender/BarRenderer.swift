// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFrames
import CCairo
import CPangoCairo
import CommentBarCore

/// Turns bar states into frames, the way the seeds' fast path does:
/// - a stable layer (background, avatar, icons, counters, status) cached and
///   drawn again only when one of its inputs changes;
/// - each comment laid out and drawn once into its own image;
/// - a frame is built on the frame published before it: a clock tick copies it
///   and redraws the clock from glyphs made once; new comments scroll the
///   comment area in the same copy and blend only the new rows. Anything else
///   composes the frame from the stable layer and the comment images.
/// When nothing visible changed, no frame is made at all. Every path gives the
/// same pixels as composing from nothing (tested).
///
/// Not thread-safe: one renderer belongs to one frame loop.
public final class BarRenderer {
    public var settings: BarSettings { kit.settings }
    public let width: Int
    public let height: Int

    /// What the renderer and its comment area share while they draw.
    private let kit: AreaKit
    /// The layout's comment area: stacked rows (bar, box) or the ticker's line.
    private var area: any CommentArea
    private var images: ImageCache { kit.images }
    private var stable: StableLayer { kit.stable }
    private var layout: BarLayout { kit.layout }
    private var lastEmoteRevision: UInt64 = 0
    /// The chat box whose toggles show no header: its layout with a row for the chat's state and
    /// a problem, used while there is one to show (nil: the layout always has its header).
    private var statusLayout: BarLayout?
    /// The layout the settings give (`layout` unless the status row shows).
    private var quietLayout: BarLayout
    /// What the last published frame shows, to know what changed.
    private var lastShown: FrameContent?

    /// What the last `render` did, for benchmarks and tests.
    public struct Work: Equatable, Sendable {
        public enum Kind: Sendable { case none, composed, scrolled, copied }
        public var kind = Kind.none
        public var stableRedrawn = false
        public var linesLaidOut = 0
        public var linesBlended = 0
        /// Bytes copied to bring the back buffer up to the last frame.
        public var bytesCaughtUp = 0
        /// Rows of the comment area written by a scroll (those above every comment are left).
        public var rowsScrolled = 0
        /// Bytes a scroll wrote: its rows, as wide as the widest comment row (the area beside the
        /// rows is left).
        public var bytesScrolled = 0
        /// The audience's strip was laid out and drawn into its image again (issue 48).
        public var audienceStripsLaidOut = 0
    }
    public var lastWork: Work { kit.work }
    /// Whether the last frame shows an animated emote, a row entering or fading, or the ticker
    /// moving: its steps are due at times of their own, so the frame loop comes round often while
    /// one shows (`ServeSession`); `nextChange(after:)` says when exactly.
    public var showsAnimation: Bool { area.showsAnimation }

    /// When the picture next changes by itself after unix time `now`, through the renderer's own
    /// motion (issue 38): the next frame's time (1/fps on) while a row enters or fades or the
    /// ticker moves, an animated emote's next step, when the first row starts to fade, or nil
    /// when nothing will. The frame loop wakes then (`NextRedraw`), and never for a bar at rest.
    public func nextChange(after now: Double) -> Double? {
        area.nextChange(after: now, step: now + 1 / Double(max(settings.maxFPS, 1)))
    }

    /// Every element of the last frame and where it is (the header's items, the avatar, the rows,
    /// the pinned strip, the ticker's comments), for the test that none is drawn over another.
    var drawnElements: [(name: String, rect: PixelRect)] {
        (stable.elements + area.elements).filter { !$0.rect.isEmpty }
    }

    /// The ticker's line and its comments in the last frame (nil: not the ticker), for tests.
    var ticker: TickerLane? { (area as? TickerArea)?.lane }
    var lastLane: [TickerLane.Placed]? { (area as? TickerArea)?.lastLane }
    /// How many times the avatar panel was drawn (not copied from its image), for tests.
    var avatarPanelDraws: Int { stable.avatarPanel.draws }
    /// The problem the header shows (an image that cannot be used).
    var notice: String? { stable.drawn?.notice }

    /// `remoteImages`: where fetched `https://` images arrive (nil: they are never shown).
    public init(settings: BarSettings, width: Int, height: Int, remoteImages: RemoteImageStore? = nil,
                emotes: EmoteImages? = nil) {
        self.width = width
        self.height = height
        kit = AreaKit(settings: settings, width: width, height: height,
                      images: ImageCache(remote: remoteImages), emotes: emotes)
        quietLayout = kit.layout
        area = Self.makeArea(kit)
        statusLayout = Self.statusLayout(kit)
    }

    /// The settings' layout's comment area.
    private static func makeArea(_ kit: AreaKit) -> any CommentArea {
        kit.settings.layout == .ticker ? TickerArea(kit: kit) : StackedRows(kit: kit)
    }

    private static func statusLayout(_ kit: AreaKit) -> BarLayout? {
        let status = BarLayout(settings: kit.settings, width: kit.width, height: kit.height, statusOnly: true)
        return status.statusOnly ? status : nil
    }

    /// New settings take effect in the next frame; only what they touch is drawn again.
    /// A theme that cannot be used (`themeProblem`) leaves the look as it was: what the streamer
    /// left at its default keeps the look the bar had.
    public func update(settings newSettings: BarSettings) {
        var newSettings = newSettings
        if newSettings.themeProblem != nil { newSettings.applyLook(settings.look) }
        guard newSettings != settings else { return }
        let lookChanged = newSettings.layout != settings.layout || newSettings.enter != settings.enter
            || newSettings.fadeAfter != settings.fadeAfter || newSettings.tickerSpeed != settings.tickerSpeed
            || newSettings.font.size != settings.font.size
        let styleChanged = kit.use(newSettings)
        quietLayout = kit.layout
        statusLayout = Self.statusLayout(kit)
        // The ticker's comments are images of the old style: its line starts again.
        if lookChanged || (area is TickerArea && styleChanged) {
            area = Self.makeArea(kit)
        } else {
            if styleChanged { area.forgetImages() }
            area.forgetLastFrame()
        }
        images.forgetFailures()
    }

    /// Drops every cache of text and layers: the next frame is drawn from nothing (a full redraw).
    /// Decoded pictures and the avatar panel made from them are kept: they depend on none of
    /// the frame's changing inputs, and are drawn again whenever what they show changes.
    public func invalidateCaches() {
        area.forgetImages()
        area.forgetLastFrame()
        kit.renewClock()
        stable.forget()
        lastShown = nil
    }

    /// Lays out the rows of `state` that have no image yet (new comments, rows whose picture
    /// arrived), so that the frame which shows them only places them: the frame loop calls this
    /// as soon as the state changed, before it waits for the frame's turn. Returns how many rows
    /// it laid out. Drawing the frame afterwards gives the same pixels as without it.
    @discardableResult
    public func prepare(_ state: BarState) -> Int {
        kit.engine.renewFontsIfFull()
        picturesArrived()
        let work = kit.work
        kit.work = Work()
        area.prepare(state)
        let laidOut = kit.work.linesLaidOut
        kit.work = work
        return laidOut
    }

    /// Draws the frame for `state` at unix time `now` into the pool's back buffer
    /// and publishes it. Returns false, having drawn nothing, when the frame would
    /// look the same as the last one.
    /// `notice`: a line for the status while the chat is live (why an item could not be read aloud).
    @discardableResult
    public func render(_ state: BarState, obs: OBSLiveState = OBSLiveState(), notice: String? = nil, now: Double,
                       into pool: any FramePool) -> Bool {
        kit.work = Work()
        kit.engine.renewFontsIfFull()
        let content = content(of: state, obs: obs, notice: notice, now: now)
        use(content.stable.layout)
        picturesArrived()
        let changes = FrameChanges(from: lastShown, to: content, stableLayer: stable.drawn)
        guard area.render(state, content: content, changes: changes, now: now, into: pool) else { return false }
        lastShown = content
        return true
    }

    /// A chat box whose toggles show no header shows its status row while something needs saying:
    /// the comment area moves, the rows are placed again.
    private func use(_ next: BarLayout) {
        // Only the chat box without a header ever switches (the default bar compares nothing).
        guard statusLayout != nil, next != kit.layout else { return }
        kit.layout = next
        area.forgetLastFrame()
        kit.damage.forgetRows()
    }

    /// A picture a shown row waits for has arrived (or failed): the area lays those rows out again.
    private func picturesArrived() {
        guard let revision = kit.emotes?.revision, revision != lastEmoteRevision else { return }
        lastEmoteRevision = revision
        area.picturesArrived()
    }

    /// What the frame for `state` at `now` shows. The images it names are loaded here (decoded
    /// once, then looked up), so one that cannot be used shows as a notice in this very frame.
    private func content(of state: BarState, obs: OBSLiveState, notice: String?, now: Double) -> FrameContent {
        let reading = BroadcastReading.resolve(settings.clockSource, feedStart: state.streamStart,
                                               feedStatus: state.status, obs: obs)
        let clockText = settings.showClock && !reading.clockHidden
            ? BarState.elapsedText(since: reading.start, now: now) : ""
        var inputs = StableInputs(
            settings: settings, layout: layout, viewers: state.viewers,
            streamViewers: settings.viewersMode == .each ? state.viewersByStream : [], giftsTotal: state.giftsTotal,
            mic: MicState.resolve(obs: obs.mic, feed: state.micOn), onAir: reading.onAir,
            clockHourDigits: max(2, clockText.split(separator: ":").first?.count ?? 2),
            // The streamer's own files win over what a feed names.
            avatar: settings.avatarPath.isEmpty ? state.avatar : .file(path: settings.avatarPath),
            background: settings.backgroundPath.isEmpty ? state.background : .file(path: settings.backgroundPath),
            status: state.status, relayStatus: state.relayStatus,
            remoteImagesRevision: images.remote?.revision ?? 0, notice: notice.map(TextSanitizer.statusLine))
        // A theme that could not be used is said, with its file and key.
        inputs.notice = inputs.notice ?? settings.themeProblem.map { TextSanitizer.statusLine("theme: " + $0) }
        if let problem = StableLayer.preload(inputs, images: images) {
            inputs.notice = inputs.notice ?? problem
        }
        if let statusLayout {
            // The chat box without a header row shows one while the chat is not live or a problem is.
            let says = StableLayer.detail(inputs) != nil || (state.status != .live && state.status != .paused)
            inputs.layout = says ? statusLayout : quietLayout
        }
        return FrameContent(stable: inputs, linesRevision: state.linesRevision, clockText: clockText,
                            meterLevel: inputs.layout.header.meter != nil ? obs.micLevel ?? 0 : nil,
                            pinned: state.pinned.flatMap { $0.holds(at: now) ? $0.line : nil },
                            audience: state.audience, audienceWords: AudienceWords.forLocale(obs.locale))
    }
}
