// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNet
import CommentBarNetTesting
import Foundation
import XCTest
@testable import TwitCastingPlatform

/// streamserver.php, then eventpubsuburl.php (a form POST), served by the in-process web.
final class TwitCastingWebTests: XCTestCase {
    static let streamServerURL = "https://twitcasting.tv/streamserver.php?target=cbtest&mode=client&player=pc_web"
    static let pubsubURL = "https://twitcasting.tv/eventpubsuburl.php"

    private func resolve(_ movie: EmbeddedWeb.Answer, pubsub: EmbeddedWeb.Answer = .status(500),
                         previouslyLive: String? = nil) async throws -> (ResolvedChatLoop.Resolution<TwitCastingChatFeed.Target>, EmbeddedWeb) {
        let web = EmbeddedWeb([Self.streamServerURL: movie, Self.pubsubURL: pubsub])
        let feed = try XCTUnwrap(TwitCastingService.description.makeFeed(FeedRequest(streamID: "cbtest", web: web))
                                 as? TwitCastingChatFeed)
        return (await feed.resolve(previouslyLive: previouslyLive), web)
    }

    func testALiveMovieGivesItsEventSocketWithGifts() async throws {
        let (resolution, web) = try await resolve(.text(#"{"movie":{"id":"789","live":true}}"#),
                                                  pubsub: .text(#"{"url":"wss://event.twitcasting.tv/?token=T"}"#))
        guard case .live(let target) = resolution else { return XCTFail("\(resolution)") }
        XCTAssertEqual(target.movieID, "789")
        XCTAssertEqual(target.endpoint.description, "wss://event.twitcasting.tv:443/?token=T&gift=1")
        XCTAssertEqual(web.requests.map(\.url), [Self.streamServerURL, Self.pubsubURL])
        let post = try XCTUnwrap(web.requests.last)
        XCTAssertEqual(post.method, .post)
        XCTAssertEqual(post.header("Content-Type"), "application/x-www-form-urlencoded")
        XCTAssertEqual(post.body.map { String(decoding: $0, as: UTF8.self) }, "movie_id=789")
        XCTAssertEqual(post.accept, "application/json")
    }

    func testNotLiveEndedMissingAndBadAnswers() async throws {
        let offline = EmbeddedWeb.Answer.text(#"{"movie":{"id":"789","live":false}}"#)
        guard case .notLive = try await resolve(offline).0 else { return XCTFail("not live") }
        guard case .ended = try await resolve(offline, previouslyLive: "789").0 else { return XCTFail("ended") }
        guard case .failed(let missing, _) = try await resolve(.text(#"{"movie":null}"#)).0 else { return XCTFail("no user") }
        XCTAssertEqual(missing, "ユーザーが見つかりません / no such TwitCasting user: cbtest")
        guard case .failed(let notNumber, _) = try await resolve(.text(#"{"movie":{"id":"1/../2","live":true}}"#)).0 else {
            return XCTFail("bad id")
        }
        XCTAssertEqual(notNumber, "TwitCasting named a movie id that is not a number")
        guard case .failed(let plain, _) = try await resolve(.text(#"{"movie":{"id":"7","live":true}}"#),
                                                             pubsub: .text(#"{"url":"ws://event.example/"}"#)).0 else {
            return XCTFail("ws://")
        }
        XCTAssertEqual(plain, "TwitCasting gave no usable comment server (wss://) for movie 7")
        guard case .failed(let broken, _) = try await resolve(.text(#"{"movie":{"id":"7","live":true}}"#)).0 else {
            return XCTFail("500")
        }
        XCTAssertEqual(broken, "\(Self.pubsubURL): HTTP 500")
    }
}
