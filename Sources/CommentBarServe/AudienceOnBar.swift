// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

extension ServeSession {
    /// The audience's view (the poll, the queue, the winner; `ParticipationPart`, paced) goes into
    /// the bar's state, as a pin does; the frame loop draws it. The same view again wakes nothing.
    func showAudience(_ view: AudienceView) {
        let changed = shared.withLock { shared -> Bool in
            guard shared.state.audience != view else { return false }
            shared.state.audience = view
            return true
        }
        if changed { wakeUp.yield() }
    }
}
