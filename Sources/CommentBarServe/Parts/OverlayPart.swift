// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// The bar on the streamer's own screen too (`FramePresenter`: the overlay helper of
/// CommentBarOverlay), told every settings change and every published frame.
final class OverlayPart: SessionPart {
    private let presenter: any FramePresenter

    init(_ presenter: any FramePresenter) {
        self.presenter = presenter
    }

    func apply(_ input: inout SessionInput) {
        if let settings = input.message.settings { presenter.settingsChanged(settings) }
    }

    func framePublished() {
        presenter.framePublished()
    }

    var problem: String? { presenter.problem }
}
