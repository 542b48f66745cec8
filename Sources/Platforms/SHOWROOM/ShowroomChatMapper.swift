// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarNet

/// Turns SHOWROOM chat messages into bar events for one connection: comments, gifts
/// (named from the room's gift list, repeated throws of one gift counted on one row),
/// the banner as a notice, and the end of the broadcast.
struct ShowroomChatMapper {
    /// Kinds known to carry nothing for the bar (MultiCommentViewer's and other readers' lists):
    /// 3/4 votes, 5 and 17 counters, 6 stage updates, 9 hide banner, 11 gift log,
    /// 18 visits and level-ups, 100 avatar refresh, 401-403 goods.
    static let ignoredKinds: Set<Int> = [3, 4, 5, 6, 9, 11, 17, 18, 100, 401, 402, 403]

    var giftNames: [Int: String]
    private var sequence = 0
    private var lastGift: (user: String, gift: Int, id: String, count: Int)?
    private var lastTelop: String?

    init(giftNames: [Int: String]) {
        self.giftNames = giftNames
    }

    mutating func map(_ payload: ShowroomPayload) -> BroadcastChatAction {
        guard let kind = payload.t?.value else { return .unknown("a message without a kind") }
        switch kind {
        case 1:
            lastGift = nil
            let text = payload.cm ?? ""
            return .emit(.comment(ChatLine(id: nextID("c"), user: name(payload), login: payload.u?.value,
                                           text: text.isEmpty ? "…" : text)))
        case 2:
            guard let gift = payload.g?.value else { return .unknown("a gift without its id") }
            let count = max(1, min(payload.n?.value ?? 1, 1_000_000))
            let user = payload.u?.value ?? name(payload)
            let giftName = giftNames[gift] ?? "ギフト #\(gift)"
            // SHOWROOM sends each throw of a gift on its own: one sender's run of the same gift
            // stays one row (same id, so it is replaced in place) with the count added up.
            if let last = lastGift, last.user == user, last.gift == gift {
                let total = min(last.count + count, 1_000_000_000)
                lastGift = (user, gift, last.id, total)
                return .emit(.gift(ChatLine(id: last.id, user: name(payload), login: payload.u?.value, text: "",
                                            kind: .gift(name: giftName, count: total))))
            }
            let id = nextID("g")
            lastGift = (user, gift, id, count)
            return .emit(.gift(ChatLine(id: id, user: name(payload), login: payload.u?.value, text: "",
                                        kind: .gift(name: giftName, count: count))))
        case 8:
            guard let telop = payload.telop, !telop.isEmpty, telop != lastTelop else { return .ignore }
            lastTelop = telop
            return .emit(.comment(ChatLine(id: nextID("t"), user: "テロップ", text: telop, kind: .notice)))
        case 101:  // the broadcast is over
            return .ended
        case 104:  // a new broadcast began: its chat needs a new key
            return .restart
        default:
            return Self.ignoredKinds.contains(kind) ? .ignore : .unknown("a message of unknown kind \(kind)")
        }
    }

    private func name(_ payload: ShowroomPayload) -> String {
        let name = payload.ac ?? ""
        return name.isEmpty ? "SHOWROOM" : name
    }

    private mutating func nextID(_ prefix: String) -> String {
        sequence += 1
        return "sr-\(prefix)\(sequence)"
    }
}
