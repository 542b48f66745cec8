// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// One viewer of the bar's 参加型 queue, as the session tells the OneComme server (issue 48):
/// the stream's platform and channel, the account, the name shown, the times called (the present
/// call included), and whether the viewer plays now.
public struct OneCommeOrder: Sendable, Equatable {
    public var platform: String
    public var channel: String
    public var user: String
    public var name: String
    public var played: Int
    public var playing: Bool

    public init(platform: String, channel: String, user: String, name: String, played: Int, playing: Bool) {
        self.platform = platform
        self.channel = channel
        self.user = user
        self.name = name
        self.played = played
        self.playing = playing
    }
}

/// OneComme's `OrderItem` (OneComme/OneSDK 7.0.0, MIT, `src/types/Order.ts` 3-19): the shape of
/// `GET /api/orders` and of the `waitingList` message on `/sub` (`src/types/OneSDK.ts` 134-137,
/// subscribed to as the `ORDER` permission, `src/permissions.ts` 20). The queue is read-only
/// here: nothing a template sends changes it (OneComme's `PUT`/`DELETE /api/orders/…` answer 405).
struct OneCommeOrderItem: Encodable, Sendable, Equatable {
    /// OneComme's `id` is the viewer's user id.
    var id: String
    /// The comment that joined: the bar keeps no such id with the queue.
    var commentId = ""
    var service: String
    var serviceName: String
    var username: String
    var profileImage = ""
    var timestamp: String
    var comment = ""
    /// Times called (OneComme's `count`).
    var count: Int
    var completed = false
    var playing: Bool
    var anonymity = false

    /// `joined`: when the bar first saw the viewer in the queue (Unix seconds).
    init(_ order: OneCommeOrder, stream: OneCommeStream?, joined: Double) {
        id = order.user
        service = OneCommeComment.services[order.platform] ?? "external"
        serviceName = stream?.name ?? order.platform
        username = order.name
        timestamp = OneCommeComment.timestamp(joined)
        count = order.played
        playing = order.playing
    }
}
