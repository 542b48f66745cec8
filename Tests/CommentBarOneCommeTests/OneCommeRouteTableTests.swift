// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarOneComme
import CommentBarTestSupport
import Testing

/// docs/doors.md lists the routes of `OneCommeRoutes.table`, the one list in the code: the two
/// stay the same (this test prints the list as it must be when they differ).
@Suite struct OneCommeRouteTableTests {
    static let start = "<!-- routes: OneCommeRoutes.table (OneCommeRouteTableTests keeps this list the same) -->"
    static let end = "<!-- /routes -->"

    /// The list as the docs show it: a Markdown table, one row per route.
    static func markdown() -> [String] {
        ["| path | what it answers |", "|---|---|"]
            + OneCommeRoutes.table.map { route in
                "| " + route.paths.map { "`\($0)`" }.joined(separator: ", ") + " | \(route.summary) |"
            }
    }

    @Test func theDocsListEveryRouteOfTheTable() throws {
        let listed = try DocsList.lines(in: "doors.md", between: Self.start, and: Self.end)
        #expect(listed == Self.markdown(), "docs/doors.md's route list should be:\n\(Self.markdown().joined(separator: "\n"))")
    }

    @Test func everyPathIsOnceInTheTable() {
        let paths = OneCommeRoutes.table.flatMap(\.paths)
        #expect(Set(paths).count == paths.count)
        #expect(paths.allSatisfy { $0.hasPrefix("/") && !$0.dropLast().contains("*") })
    }

    /// Each pattern lands on its own route: no row is hidden behind another.
    @Test func everyPatternReachesItsRoute() throws {
        for route in OneCommeRoutes.table {
            for pattern in route.paths {
                let path = pattern.hasSuffix("*") ? pattern.dropLast() + "x" : Substring(pattern)
                let landed = try #require(OneCommeRoutes.route(for: path), "\(pattern)")
                #expect(landed.route.paths == route.paths, "\(pattern)")
            }
        }
    }
}
