import XCTest
final class RenderPlaceholderTests: XCTestCase { func testNothing() {} }
