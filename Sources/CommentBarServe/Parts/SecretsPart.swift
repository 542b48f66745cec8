// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import Logging
import Synchronization

/// The source's secrets (`SourceSecrets`, `SecretStore`): before anything starts a feed, a secret
/// sent once is saved and a saved one is read back into the settings' credentials; "Forget"
/// deletes the file and the feeds stop using the secrets at once. First in the parts list, so
/// every other part sees the settings with their credentials.
final class SecretsPart: SessionPart {
    private let secrets: Mutex<SourceSecrets>

    /// The secrets' problems go to the log only (a secret used from memory for this session
    /// works: the bar's line is kept for what does not).
    init(store: SecretStore?, log: Logger) {
        secrets = Mutex(SourceSecrets(store: store, log: log))
    }

    func apply(_ input: inout SessionInput) {
        if let settings = input.message.settings {
            input.message.settings?.credentials = secrets.withLock {
                $0.credentials(for: settings, reference: input.message.secrets)
            }
        }
        guard input.actions.contains(.forgetSecrets) else { return }
        secrets.withLock { $0.forget() }
        // The feeds stop using them now (the shim's settings line says so too): this line's
        // settings, or the bar's again, without them.
        if input.message.settings != nil {
            input.message.settings?.credentials = [:]
        } else if !input.current.credentials.isEmpty {
            var settings = input.current
            settings.credentials = [:]
            input.message.settings = settings
        }
    }
}
