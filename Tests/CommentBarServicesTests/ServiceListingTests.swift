// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
@testable import CommentBarServices
import XCTest

/// `commentbar services --c-header`: the OBS shim's service list and Stream ID help.
final class ServiceListingTests: XCTestCase {
    func testHeaderListsEveryServiceAndItsHelp() {
        let header = ServiceListing.cHeader(.product)
        let lines = header.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let services = lines.drop { !$0.hasPrefix("#define COMMENTBAR_SERVICES(X)") }.dropFirst().prefix { $0.hasPrefix("\tX(") }
        let help = lines.drop { !$0.hasPrefix("#define COMMENTBAR_SERVICE_HELP(X)") }.dropFirst().prefix { $0.hasPrefix("\tX(") }
        XCTAssertEqual(Array(services), ServiceRegistry.all.map {
            "\tX(\(ServiceListing.cString($0.id)), \(ServiceListing.cString($0.displayName))) \\"
        })
        XCTAssertEqual(Array(help), ServiceRegistry.all.map {
            "\tX(\(ServiceListing.cString($0.id)), \(ServiceListing.cString($0.streamIDHelp.en)), "
                + "\(ServiceListing.cString($0.streamIDHelp.ja))) \\"
        })
        for line in lines { XCTAssertTrue(line.utf8.allSatisfy { $0 < 0x80 }, "the header is ASCII: \(line)") }
    }

    func testCStringEscapes() {
        XCTAssertEqual(ServiceListing.cString(#"a "b" \ c?"#), #""a \"b\" \\ c\077""#)
        XCTAssertEqual(ServiceListing.cString("名"), #""\345\220\215""#)
        XCTAssertEqual(ServiceListing.cString("tab\there"), #""tab\011here""#)
    }
}
