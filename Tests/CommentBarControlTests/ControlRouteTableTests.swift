// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarControl
import CommentBarTestSupport
import Testing

/// docs/control-api.md lists the routes of `ControlRoutes.table`, the one list in the code:
/// the two stay the same (this test prints the list as it must be when they differ).
@Suite struct ControlRouteTableTests {
    static let start = "<!-- routes: ControlRoutes.table (ControlRouteTableTests keeps this list the same) -->"
    static let end = "<!-- /routes -->"

    /// The list as the docs show it: a Markdown table, one row per route.
    static func markdown() -> [String] {
        ["| method | path | what it does |", "|---|---|---|"]
            + ControlRoutes.table.map { "| `\($0.method.rawValue)` | `\($0.path)` | \($0.summary) |" }
    }

    @Test func theDocsListEveryRouteOfTheTable() throws {
        let listed = try DocsList.lines(in: "control-api.md", between: Self.start, and: Self.end)
        #expect(listed == Self.markdown(), "docs/control-api.md's route list should be:\n\(Self.markdown().joined(separator: "\n"))")
    }

    @Test func everyRouteIsOnceInTheTable() {
        let keys = ControlRoutes.table.map { "\($0.method.rawValue) \($0.path)" }
        #expect(Set(keys).count == keys.count)
        #expect(ControlRoutes.table.allSatisfy { $0.path.hasPrefix("/") && ($0.method == .GET) != $0.takesJSON })
    }
}
