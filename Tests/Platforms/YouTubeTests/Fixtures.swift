// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
@testable import YouTubePlatform

/// The recorded responses under Tests/feeds/fixtures/youtube (see SOURCES.md there), shared
/// with the live tests' fake server.
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("feeds/fixtures/youtube")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    /// A whole recorded `get_live_chat` response.
    static func response(_ name: String) throws -> LiveChatResponse {
        try JSONDecoder().decode(LiveChatResponse.self, from: data(name))
    }

    /// A recorded list of actions.
    static func actions(_ name: String) throws -> [ChatAction] {
        try JSONDecoder().decode([Skippable<ChatAction>].self, from: data(name)).compactMap(\.value)
    }
}
