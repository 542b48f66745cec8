// SPDX-License-Identifier: GPL-2.0-or-later

/// Something that shows the frames `serve` publishes somewhere else too (the overlay on the
/// streamer's screen, `CommentBarOverlay`). It is told every settings change and every published
/// frame, from the frame loop, and must never block it.
public protocol FramePresenter: Sendable {
    func settingsChanged(_ settings: BarSettings)
    func framePublished()
    /// Why it cannot show the frames now, for the bar's status line (nil: it can, or it is off).
    var problem: String? { get }
}

extension FramePresenter {
    public var problem: String? { nil }
}
