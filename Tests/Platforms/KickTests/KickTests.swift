// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
@testable import KickPlatform
import XCTest

final class KickTests: XCTestCase {
    func testChannelNamesURLsAndChatroomIDs() throws {
        XCTAssertEqual(try KickChannel.parse("https://kick.com/Some_Streamer"), .channel(slug: "some-streamer"))
        XCTAssertEqual(try KickChannel.parse("kick.com/xqc?ref=1#chat"), .channel(slug: "xqc"))
        XCTAssertEqual(try KickChannel.parse("  trainwreckstv \n"), .channel(slug: "trainwreckstv"))
        XCTAssertEqual(try KickChannel.parse("chatroom:668"), .chatroom(id: 668))
        for bad in ["", "https://kick.com/", "a b", "名前", "../etc", String(repeating: "a", count: 26),
                    "chatroom:", "chatroom:-1", "chatroom:12a", "chatroom:0"] {
            XCTAssertThrowsError(try KickChannel.parse(bad), bad)
        }
    }

    func testEmoteTagsBecomeTheirNamesWithPicturesFromKicksHost() {
        let (text, emotes) = KickEmoteTags.expand("草 [emote:37226:KEKW][emote:1:a_b] [emote:x:Bad] [emote:2:")
        XCTAssertEqual(text, "草 KEKWa_b [emote:x:Bad] [emote:2:")
        XCTAssertEqual(emotes, [Emote(range: 2..<6, name: "KEKW", url: "https://files.kick.com/emotes/37226/fullsize"),
                                Emote(range: 6..<9, name: "a_b", url: "https://files.kick.com/emotes/1/fullsize")])
        XCTAssertEqual(Emote.valid(emotes, in: text), emotes, "the ranges fit the text they stand for")
        let many = String(repeating: "[emote:1:E]", count: 100)
        XCTAssertEqual(KickEmoteTags.expand(many).emotes.count, Emote.maxPerRow)
    }

    func testPusherEnvelopesWithStringOrObjectData() throws {
        let text = try PusherMessage.parse(Array(#"{"event":"pusher:connection_established","data":"{\"socket_id\":\"1.2\",\"activity_timeout\":30}"}"#.utf8))
        XCTAssertEqual(try text.decode(KickChatFeed.ConnectionEstablished.self).activityTimeout, 30)
        let object = try PusherMessage.parse(Array(#"{"event":"pusher:error","data":{"code":4001,"message":"App key not in this cluster"}}"#.utf8))
        XCTAssertEqual(try object.decode(KickChatFeed.PusherError.self).code, 4001)
        XCTAssertThrowsError(try PusherMessage.parse(Array("[1,2]".utf8)))
        XCTAssertThrowsError(try PusherMessage.parse(Array(#"{"event":""}"#.utf8)))
        XCTAssertEqual(PusherMessage.subscribe("chatrooms.1.v2"),
                       #"{"data":{"auth":"","channel":"chatrooms.1.v2"},"event":"pusher:subscribe"}"#)
    }

    func testChatEventsMapToBarEvents() throws {
        var mapper = KickChatMapper()
        func map(_ event: String, _ data: String) throws -> KickChatMapper.Action {
            let frame = #"{"event":"App\\Events\\"# + event + #"","data":"# + String(reflecting: data) + "}"
            return mapper.map(try PusherMessage.parse(Array(frame.utf8)))
        }
        let message = ##"{"id":"m1","content":"hi","sender":{"username":"Ann","slug":"ann","identity":{"color":"#00FF00","badges":[{"type":"vip"}]}}}"##
        guard case .emit(.comment(let line)) = try map("ChatMessageEvent", message) else { return XCTFail("no comment") }
        XCTAssertEqual(line.id, "m1")
        XCTAssertEqual(line.user, "Ann")
        XCTAssertEqual(line.login, "ann")
        XCTAssertEqual(line.color, RGBColor(hex: "#00ff00"))
        XCTAssertEqual(line.badges, ["vip"])
        XCTAssertEqual(try map("MessageDeletedEvent", #"{"message":{"id":"m1"}}"#), .emit(.delete(id: "m1")))
        XCTAssertEqual(try map("UserBannedEvent", #"{"user":{"username":"Ann","slug":"ann"}}"#), .emit(.deleteUser(user: "ann")))
        XCTAssertEqual(try map("ChatroomClearEvent", "{}"), .emit(.clear))
        XCTAssertEqual(try map("StopStreamBroadcast", "{}"), .ended)
        XCTAssertEqual(try map("PollUpdateEvent", "{}"), .ignore)
        guard case .emit(.gift(let gifted)) = try map("GiftedSubscriptionsEvent",
                                                      #"{"gifted_usernames":["a","b"],"gifter_username":"G"}"#) else {
            return XCTFail("no gift")
        }
        XCTAssertEqual(gifted.user, "G")
        XCTAssertEqual(gifted.kind, .gift(name: "ギフトサブスク / Gifted subscriptions", count: 2))
        if case .unknown = try map("ChatMessageEvent", "{not json") {} else { XCTFail("bad data is skipped") }
        if case .unknown = try map("ChatMessageEvent", #"{"content":"no sender"}"#) {} else { XCTFail("no sender") }
        if case .unknown = try map("SomethingNew", "{}") {} else { XCTFail("an unknown event is noted") }
    }

    func testChannelJSONStartAndViewers() throws {
        let json = #"{"id":700,"chatroom":{"id":668},"livestream":{"is_live":true,"viewer_count":12,"start_time":"2024-05-01 18:00:00"}}"#
        let channel = try JSONDecoder().decode(KickAPI.Channel.self, from: Data(json.utf8))
        XCTAssertEqual(channel.chatroom?.id, 668)
        XCTAssertEqual(channel.livestream?.viewerCount, 12)
        XCTAssertEqual(channel.livestream?.startedAt, 1_714_586_400)
        XCTAssertEqual(KickTime.unixSeconds("2024-05-01T18:00:00.123456Z"), 1_714_586_400)
        XCTAssertEqual(KickTime.unixSeconds("2024-05-01T20:00:00+02:00"), 1_714_586_400)
        XCTAssertNil(KickTime.unixSeconds("yesterday"))
        let offline = try JSONDecoder().decode(KickAPI.Channel.self, from: Data(#"{"id":1,"chatroom":{"id":2},"livestream":null}"#.utf8))
        XCTAssertNil(offline.livestream)
    }
}
