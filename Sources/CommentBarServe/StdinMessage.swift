// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSpeech
import FoundationEssentials

/// One line of the renderer's stdin, from the OBS shim (docs/architecture.md, "The renderer's
/// stdin"), decoded once into every kind it may carry: `{"settings":{…}}` when the source's
/// settings change (the bar's and speech's, from the same object), `{"active":true|false}` when
/// it is shown or hidden, `{"obs":{…}}` when OBS's own state changes, `{"speech":{…}}` for the
/// reading hotkeys and `{"actions":{…}}` for the pin and control hotkeys and the secrets' "Forget"
/// (`secrets` is read from the settings object too). Each kind goes to its
/// consumer typed (`ServeSession`); nothing reads the line again. Unknown keys are ignored, so a
/// newer shim can talk to an older renderer.
public struct StdinMessage: Decodable, Sendable, Equatable {
    public var settings: BarSettings?
    /// The speech rows of the same `settings` object.
    public var speechSettings: SpeechSettings?
    /// What the same `settings` object says of the source's saved secrets (their file's id).
    public var secrets: SecretReference?
    public var active: Bool?
    /// `{"obs":{…}}`: OBS's streaming, recording and mic state and its locale (`OBSLiveState`).
    public var obs: OBSLiveState?
    /// `{"speech":{"skip":N,"paused":B}}`: the reading hotkeys.
    public var speech: SpeechControl?
    /// `{"actions":{"pin_newest":N,"unpin":N,"open_control":N,"forget_secrets":N}}`: the pin and
    /// control hotkeys, the secrets' "Forget".
    public var actions: ActionCounters?

    public init(settings: BarSettings? = nil, speechSettings: SpeechSettings? = nil, secrets: SecretReference? = nil,
                active: Bool? = nil, obs: OBSLiveState? = nil, speech: SpeechControl? = nil,
                actions: ActionCounters? = nil) {
        self.settings = settings
        self.speechSettings = speechSettings
        self.secrets = secrets
        self.active = active
        self.obs = obs
        self.speech = speech
        self.actions = actions
    }

    enum CodingKeys: String, CodingKey {
        case settings, active, obs, speech, actions
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        settings = try c.decodeIfPresent(BarSettings.self, forKey: .settings)
        speechSettings = try c.decodeIfPresent(SpeechSettings.self, forKey: .settings)
        secrets = try c.decodeIfPresent(SecretReference.self, forKey: .settings)
        active = try c.decodeIfPresent(Bool.self, forKey: .active)
        obs = try c.decodeIfPresent(OBSLiveState.self, forKey: .obs)
        speech = try c.decodeIfPresent(SpeechControl.self, forKey: .speech)
        actions = try c.decodeIfPresent(ActionCounters.self, forKey: .actions)
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
