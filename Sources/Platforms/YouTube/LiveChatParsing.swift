// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import FoundationEssentials

/// The parse path of one `get_live_chat` response on its own (JSON decoding and action
/// mapping, as the feed runs them), for the parser benchmark.
package enum YouTubeLiveChatParsing {
    /// The events of a `get_live_chat` response body; nil when it is not chat JSON.
    package static func events(inResponse body: [UInt8], decoder: JSONDecoder) -> [FeedEvent]? {
        guard let response = try? decoder.decode(LiveChatResponse.self, from: Data(body)) else { return nil }
        return response.actions.flatMap(ChatActionMapper.events(for:))
    }
}
