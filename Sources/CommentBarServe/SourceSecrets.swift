// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import Logging

/// What a settings line says of the source's secrets besides their values (which `BarSettings`
/// reads into `credentials`): `secrets_id`, the id naming their file, and `<key>_saved: true` for
/// each secret the renderer keeps for the source (the shim's source-secrets.c). Keys beyond the
/// settings table's; absent in a line from a shim that does not know them.
public struct SecretReference: Decodable, Sendable, Equatable {
    public var id: String?
    /// The setting keys (`BarSettings.SecretKeys`) said to be saved.
    public var saved: Set<String>

    public init(id: String? = nil, saved: Set<String> = []) {
        self.id = id
        self.saved = saved
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        id = (try? c.decodeIfPresent(String.self, forKey: Key(stringValue: "secrets_id"))) ?? nil
        saved = Set(BarSettings.SecretKeys.allCases.map(\.rawValue).filter { key in
            ((try? c.decodeIfPresent(Bool.self, forKey: Key(stringValue: key + "_saved"))) ?? nil) == true
        })
    }
}

/// The renderer's side of a source's secrets (docs/architecture.md, "Secrets"): the shim sends a
/// secret once, in the settings line made when it was typed; this saves it in the `SecretStore`
/// under the line's id, and gives it back to the feeds on every later line that says it is saved
/// (after a restart of OBS too). "Forget" (the actions channel's `forget_secrets`) deletes the
/// file. Nothing here logs a value.
struct SourceSecrets {
    private let store: SecretStore?
    /// The newest settings line's id: the file "Forget" deletes.
    private var id: SecretID?
    /// The problem logged last: logged once until it changes.
    private var reported: String?

    init(store: SecretStore?) {
        self.store = store
    }

    /// The credentials the feeds get for a settings line: its own secrets (saved under its id),
    /// and the ones it says are saved, read back from their file.
    mutating func credentials(for settings: BarSettings, reference: SecretReference?, log: Logger) -> [String: String] {
        let given = settings.credentials
        // A line from an older shim sends its secrets every time and names no file.
        guard let reference else { return given }
        id = reference.id.flatMap(SecretID.init)
        guard !given.isEmpty || !reference.saved.isEmpty else {
            report(nil, log)
            return given
        }
        guard let store, let id else {
            let why = store == nil ? "neither XDG_CONFIG_HOME nor HOME is set" : "the settings name no valid secrets_id"
            report("secrets: cannot be kept for this source (\(why)); paste them again after OBS restarts", log)
            return given
        }
        var problems: [String] = []
        var stored: [String: String] = [:]
        do {
            stored = try store.load(id: id)
        } catch {
            problems.append(error.description)
        }
        if !given.isEmpty {
            let merged = stored.merging(given) { $1 }
            do {
                if merged != stored {
                    try store.save(merged, id: id)
                    log.info("secrets: \(given.keys.sorted().joined(separator: ", ")) saved in \(store.path(of: id))")
                }
                stored = merged
            } catch {
                problems.append(error.description)
            }
        }
        var credentials = given
        for key in reference.saved.sorted() where credentials[key] == nil {
            if let value = stored[key] {
                credentials[key] = value
            } else if problems.isEmpty {
                problems.append("secrets: the saved \(key) is not in \(store.path(of: id)): paste it again in the source's properties")
            }
        }
        report(problems.isEmpty ? nil : problems.joined(separator: "; "), log)
        return credentials
    }

    /// "Forget": the newest line's file goes. The credentials in use are the caller's to drop.
    mutating func forget(log: Logger) {
        reported = nil
        guard let store, let id else { return }
        do {
            try store.delete(id: id)
            log.info("secrets: forgotten (\(store.path(of: id)) deleted)")
        } catch {
            log.error("\(error.description)")
        }
    }

    private mutating func report(_ problem: String?, _ log: Logger) {
        if let problem, problem != reported { log.warning("\(problem)") }
        reported = problem
    }
}
