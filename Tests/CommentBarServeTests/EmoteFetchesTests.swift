// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarRender
@testable import CommentBarServe
import Logging
import XCTest

final class EmoteFetchesTests: XCTestCase {
    /// A chat naming picture after picture on a CDN that never answers: at most a few fetches run,
    /// and the waiting queue stays bounded (the oldest waiting ones are forgotten, not kept).
    func testTheQueueIsBoundedWhenTheCDNNeverAnswers() async {
        let fetches = EmoteFetches(log: Logger(label: "test"), fetch: { _ in
            try? await Task.sleep(for: .seconds(60))
            return .failure(EmoteFetches.Failure("never answered"))
        }, arrived: {})
        let lines = (0..<(EmoteFetches.maxWaiting * 2)).map { index in
            ChatLine(id: "\(index)", user: "u", text: "e\(index)",
                     emotes: [Emote(range: 0..<"e\(index)".unicodeScalars.count, name: "e\(index)", url: "https://cdn/\(index)")])
        }
        fetches.want(lines)
        var known = 0
        for index in lines.indices {
            if fetches.store.state(of: "https://cdn/\(index)") != nil { known += 1 }
        }
        XCTAssertLessThanOrEqual(known, EmoteFetches.maxWaiting + EmoteFetches.maxConcurrent)
        XCTAssertNotNil(fetches.store.state(of: "https://cdn/\(lines.count - 1)"), "the newest are kept")
        fetches.giveUp(after: 0)
    }
}
