// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import Foundation
import CommentBarNet
import CommentBarNetTesting
import XCTest
@testable import OPENRECPlatform

/// The public movies API, served by the in-process web.
final class OpenrecWebTests: XCTestCase {
    static let movieURL = "https://public.openrec.tv/external/api/v5/movies/n9ze3m2w184"

    private func resolve(_ answer: EmbeddedWeb.Answer) async throws -> (ResolvedChatLoop.Resolution<OpenrecChatFeed.Target>, EmbeddedWeb) {
        let web = EmbeddedWeb([Self.movieURL: answer])
        let feed = try XCTUnwrap(OPENRECService.description.makeFeed(FeedRequest(streamID: "n9ze3m2w184", web: web))
                                 as? OpenrecChatFeed)
        return (await feed.resolve(), web)
    }

    func testOnAirGivesTheChatOfItsMovieIDStartAndViewers() async throws {
        let (resolution, web) = try await resolve(.text(
            #"{"movie_id":993793,"onair_status":"1","started_at":"2018-08-23T09:37:50+09:00","live_views":"12"}"#))
        guard case .live(let target) = resolution else { return XCTFail("\(resolution)") }
        XCTAssertEqual(target.endpoint.description, "wss://chat.openrec.tv:443/socket.io/?movieId=993793&EIO=3&transport=websocket")
        XCTAssertEqual(target.startTime, 1_534_984_670)
        XCTAssertEqual(target.viewers, 12)
        XCTAssertEqual(web.requests.map(\.url), [Self.movieURL])
        XCTAssertEqual(web.requests.first?.accept, "application/json")
    }

    /// The recorded answer's `channel.id`: every broadcast of the channel is one channel to the viewer memory.
    func testTheBroadcastsChannel() async throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("feeds/fixtures/openrec")
        let recorded = try Data(contentsOf: folder.appendingPathComponent("movie_onair.json"))
        guard case .live(let target) = try await resolve(.ok(Array(recorded))).0 else { return XCTFail("live") }
        XCTAssertEqual(target.channelID, "cb_channel")
        guard case .live(let unnamed) = try await resolve(.text(#"{"movie_id":1,"onair_status":1,"channel":{"id":"a b"}}"#)).0
        else { return XCTFail("live") }
        XCTAssertNil(unnamed.channelID, "not an id")
    }

    func testOverNotYetMissingAndJunk() async throws {
        guard case .ended = try await resolve(.text(#"{"movie_id":"1","onair_status":2}"#)).0 else { return XCTFail("ended") }
        guard case .notLive = try await resolve(.text(#"{"movie_id":"1","onair_status":0}"#)).0 else { return XCTFail("not yet") }
        guard case .failed(let missing, _) = try await resolve(.status(404)).0 else { return XCTFail("404") }
        XCTAssertEqual(missing, "配信が見つかりません / no such OPENREC broadcast: n9ze3m2w184")
        guard case .failed(let junk, _) = try await resolve(.text("[")).0 else { return XCTFail("junk") }
        XCTAssertEqual(junk, "\(Self.movieURL): not the expected JSON")
        guard case .failed(let noID, _) = try await resolve(.text(#"{"movie_id":"../x","onair_status":1}"#)).0 else {
            return XCTFail("bad id")
        }
        XCTAssertEqual(noID, "OPENREC gave no numeric movie id for n9ze3m2w184")
    }
}
