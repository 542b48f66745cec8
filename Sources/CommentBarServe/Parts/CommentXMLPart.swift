// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCommentXML
import CommentBarCore
import Logging

/// HTML5コメジェネ's comment.xml (`CommentXMLWriter`): the path from each settings line; the rows
/// the bar shows, and its deletions, bans and clears.
final class CommentXMLPart: SessionPart {
    let writer: CommentXMLWriter

    init(_ writer: CommentXMLWriter) {
        self.writer = writer
    }

    /// The product's: problems wake the frame loop (`changed`).
    convenience init(log: Logger, changed: @escaping @Sendable () -> Void) {
        self.init(CommentXMLWriter(log: log, changed: changed))
    }

    func apply(_ input: inout SessionInput) {
        if let settings = input.message.settings { writer.configure(path: settings.commentXMLPath) }
    }

    func heard(_ event: FeedEvent, shown: ChatLine?, origin: BarState.Origin) {
        // With several streams, a ban or a clear is one stream's (`RowID`).
        let stream = origin.count > 1 ? origin.index : nil
        switch event {
        case .comment, .gift:
            if let shown { writer.add(shown, platform: origin.service) }
        case .delete(let id):
            writer.remove(id: id)
        case .deleteUser(let user):
            writer.remove(user: user, stream: stream)
        case .clear:
            writer.remove(stream: stream)
        default:
            break
        }
    }

    var problem: String? { writer.problems.current }

    func stop() async {
        await writer.stop()
    }
}
