// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarNet
import FoundationEssentials

/// One event of TwitCasting's event WebSocket; each message is a JSON array of them.
/// Comments carry `author`, items (gifts) carry `sender` and `item`.
struct TwitCastingEvent: Decodable, Equatable {
    struct Person: Decodable, Equatable {
        var id: LenientString?
        /// The display name.
        var name: String?
        /// The account's @name.
        var screenName: String?
    }

    struct Item: Decodable, Equatable {
        var name: String?
    }

    struct ScoreItem: Decodable, Equatable {
        var title: String?
        var text: String?
    }

    var type: String?
    var id: LenientString?
    var message: String?
    var author: Person?
    var sender: Person?
    var item: Item?
    var scoreItems: [ScoreItem]?

    enum CodingKeys: String, CodingKey {
        case type, id, message, author, sender, item
        case scoreItems = "score_items"
    }

    struct ParseError: Error, Equatable {
        var reason: String
    }

    /// The events of one WebSocket message.
    static func parseMessage(_ bytes: some Collection<UInt8>) throws(ParseError) -> [TwitCastingEvent] {
        do {
            return try JSONDecoder().decode([TwitCastingEvent].self, from: Data(bytes))
        } catch {
            throw ParseError(reason: "a message that is not a JSON array of events")
        }
    }

    /// The bar's event for this one, or why it is skipped.
    func feedEvent() -> Result<FeedEvent, ParseError> {
        switch type {
        case "comment":
            guard let id = id?.value, !id.isEmpty else { return .failure(ParseError(reason: "a comment without an id")) }
            let text = message ?? ""
            return .success(.comment(ChatLine(id: "tc-\(id)", user: Self.displayName(author), login: author?.id?.value,
                                              text: text.isEmpty ? "…" : text)))
        case "gift":
            guard let id = id?.value, !id.isEmpty else { return .failure(ParseError(reason: "an item without an id")) }
            // The item is the gift; a score item ("🍡" × "2") says how many of it were sent.
            let count = scoreItems?.lazy.compactMap { $0.text.flatMap { Int($0) } }.first(where: { $0 > 0 }) ?? 1
            let name = item?.name.flatMap { $0.isEmpty ? nil : $0 } ?? "アイテム"
            return .success(.gift(ChatLine(id: "tc-gift-\(id)", user: Self.displayName(sender), login: sender?.id?.value,
                                           text: message ?? "", kind: .gift(name: name, count: min(count, 1_000_000)))))
        case let other:
            return .failure(ParseError(reason: "an event of unknown type \(String(reflecting: String((other ?? "none").prefix(32))))"))
        }
    }

    static func displayName(_ person: Person?) -> String {
        for candidate in [person?.name, person?.screenName, person?.id?.value] {
            if let candidate, !candidate.isEmpty { return candidate }
        }
        return "TwitCasting"
    }
}
