import XCTest
final class FeedsPlaceholderTests: XCTestCase { func testNothing() {} }
