// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import CommentBarCore
import FoundationEssentials

/// Pins and the hotkeys: the session is the default `BarActionHandler`, and the control page's
/// backend pins through it too.
extension ServeSession: BarActionHandler {
    /// Pins `line` at the top of the bar for `pin_seconds` (0: until unpinned); when the pin ends.
    func pin(_ line: ChatLine) -> Double? {
        let until = shared.withLock { shared -> Double? in
            let seconds = shared.settings.pinSeconds
            let until = seconds > 0 ? WallClock.now() + Double(seconds) : nil
            shared.state.pin(line, until: until)
            return until
        }
        wakeUp.yield()
        return until
    }

    /// Takes the pin away (only row `id`'s, when given); whether one went.
    @discardableResult
    func unpin(id: String? = nil) -> Bool {
        let went = shared.withLock { $0.state.unpin(id: id) }
        if went { wakeUp.yield() }
        return went
    }

    /// The "Pin the newest comment" hotkey: the newest row the bar shows goes to the top.
    public func pinNewest() {
        guard let newest = shared.withLock({ $0.state.lines.last }) else { return }
        _ = pin(newest)
        log.info("pinned the newest comment (hotkey)")
    }

    /// How many rows the bar holds now (tests wait for a feed's rows before acting on them).
    var rowCount: Int { shared.withLock { $0.state.lines.count } }

    /// The "Unpin" hotkey.
    public func unpinComment() {
        if unpin() { log.info("unpinned (hotkey)") }
    }

    /// The source's "Open control page" button: the page in the default browser.
    public func openControlPage() {
        control.openPage()
    }

    /// The shim's pin and control hotkeys, one call per press.
    public func perform(_ action: BarAction) {
        switch action {
        case .pinNewest: pinNewest()
        case .unpin: unpinComment()
        case .openControl: openControlPage()
        // Never handed here (`BarAction.isTheHandlers`).
        case .forgetSecrets, .saveTheme, .closePoll, .callNext, .drawWinner: break
        }
    }
}
