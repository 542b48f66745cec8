// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import FoundationEssentials

/// One line of the renderer's stdin, from the OBS shim (docs/architecture.md):
/// `{"settings":{…}}` when the source's settings change, `{"active":true|false}`
/// when it is shown or hidden, `{"obs":{…}}` when OBS's own state changes. Unknown keys
/// are ignored, so a newer shim can talk to an older renderer.
public struct StdinMessage: Decodable, Sendable, Equatable {
    public var settings: BarSettings?
    public var active: Bool?
    /// `{"obs":{…}}`: OBS's streaming, recording and mic state (`OBSLiveState`).
    public var obs: OBSLiveState?

    public init(settings: BarSettings? = nil, active: Bool? = nil, obs: OBSLiveState? = nil) {
        self.settings = settings
        self.active = active
        self.obs = obs
    }

    public struct DecodeError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public static func decode(line: String) throws(DecodeError) -> StdinMessage {
        do {
            return try JSONDecoder().decode(StdinMessage.self, from: Data(line.utf8))
        } catch {
            // A settings line may hold a secret (a session): such a line is never quoted.
            let holdsSecret = BarSettings.SecretKeys.allCases.contains { line.contains($0.rawValue) }
            let shown = holdsSecret ? "(not quoted: it names a secret setting)" : String(line.prefix(120))
            throw DecodeError(description: "ignoring a stdin line that is not a message object: \(shown)")
        }
    }
}
