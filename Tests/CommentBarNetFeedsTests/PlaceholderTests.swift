import XCTest
@testable import CommentBarNetFeeds

final class NetworkFeedsFactoryTests: XCTestCase {
    func testUnknownServiceIsNotNetwork() throws {
        XCTAssertNil(try NetworkFeeds.make(service: "demo", streamID: "x", server: ""))
    }
}
