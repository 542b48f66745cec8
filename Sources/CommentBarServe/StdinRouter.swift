// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// The stdin router: each line is decoded once (`StdinMessage`), handed to every part in order
/// (the secrets fill in the credentials first), then to the bar's own state; a feed key that
/// changed starts the new feeds, and the hotkeys' presses go to the action handler.
extension ServeSession {
    func follow(_ messages: AsyncStream<String>) async {
        var feeds = FeedRunner(session: self)
        var actionTracker = ActionTracker()
        for await line in messages {
            var message: StdinMessage
            do {
                message = try StdinMessage.decode(line: line)
            } catch {
                log.error("\(error.description)")
                continue
            }
            // The theme file the settings name is read here, once per settings line (Core opens no file).
            message.settings = message.settings.map(ThemeFiles.resolved)
            let pressed = message.actions.map { actionTracker.actions(for: $0) } ?? []
            var input = SessionInput(message: message, actions: pressed, current: shared.withLock { $0.settings })
            for part in parts { part.apply(&input) }
            // The secrets' "Forget" is the secrets part's, the audience's the participation
            // part's, the saved look the session's; the others are the handler's.
            for action in pressed where action.isTheHandlers {
                (actions ?? self).perform(action)
            }
            apply(input.message, feeds: &feeds)
            if pressed.contains(.saveTheme) { saveLook(to: message.actions?.saveThemePath) }
            wakeUp.yield()
        }
        log.info("stdin closed: exiting")
        feeds.stop()
        flowAlarm.cancel()
        redrawAlarm.cancel()
        wakeUp.finish()
    }

    /// What a line says of the bar itself: shown or hidden, OBS's state, the settings (a new
    /// feed key starts the new feeds).
    private func apply(_ message: StdinMessage, feeds: inout FeedRunner) {
        if let active = message.active {
            shared.withLock { $0.active = active }
            log.info("\(active ? "shown: rendering" : "hidden everywhere: paused")")
        }
        if let obs = message.obs {
            shared.withLock { $0.obs = obs }
        }
        guard let settings = message.settings else { return }
        for unknown in settings.unknownChoices { log.warning("settings: \(unknown)") }
        let filters = settings.filters
        shared.withLock {
            $0.settings = settings
            $0.settingsRevision += 1
            // New rows go through the new filters; rows already shown stay.
            $0.state.filters = filters
            $0.flow.options = settings.flowOptions
        }
        feeds.follow(settings)
    }
}
