import XCTest
final class CorePlaceholderTests: XCTestCase { func testNothing() {} }
