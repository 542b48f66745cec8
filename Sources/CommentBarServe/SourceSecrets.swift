// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport
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

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: NamedCodingKey.self)
        id = (try? c.decodeIfPresent(String.self, forKey: NamedCodingKey("secrets_id"))) ?? nil
        saved = Set(BarSettings.SecretKeys.allCases.map(\.rawValue).filter { key in
            ((try? c.decodeIfPresent(Bool.self, forKey: NamedCodingKey(key + "_saved"))) ?? nil) == true
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
    private let log: Logger
    /// The newest settings line's id: the file "Forget" deletes.
    private var id: SecretID?
    /// The secrets this renderer was sent: used while the file cannot be (a full disk, no HOME).
    private var sent: [String: String] = [:]
    /// What is wrong with the secrets now, logged once per distinct text.
    let reporter: ProblemReporter

    init(store: SecretStore?, log: Logger, changed: @escaping @Sendable () -> Void = {}) {
        self.store = store
        self.log = log
        reporter = ProblemReporter(log: log, level: .warning, changed: changed)
    }

    /// The credentials the feeds get for a settings line: its own secrets (saved under its id),
    /// and the ones it says are saved, read back from their file.
    mutating func credentials(for settings: BarSettings, reference: SecretReference?) -> [String: String] {
        let given = settings.credentials
        // A line from an older shim sends its secrets every time and names no file.
        guard let reference else { return given }
        id = reference.id.flatMap(SecretID.init)
        sent.merge(given) { $1 }
        guard !given.isEmpty || !reference.saved.isEmpty else {
            reporter.report(nil)
            return given
        }
        var (stored, problems) = ([String: String](), [String]())
        if let store, let id {
            (stored, problems) = Self.file(store, id, saving: given, log: log)
        } else {
            let why = store == nil ? "neither XDG_CONFIG_HOME nor HOME is set" : "the settings name no valid secrets_id"
            problems.append("secrets: nowhere to keep them (\(why))")
        }
        var credentials = given
        for key in reference.saved.sorted() where credentials[key] == nil {
            if let value = stored[key] ?? sent[key] {
                credentials[key] = value
            } else if problems.isEmpty, let store, let id {
                problems.append("secrets: the saved \(key) is not in \(store.path(of: id)): paste it again in the source's properties")
            }
        }
        if !problems.isEmpty, !sent.isEmpty { problems.append("what was sent is used until OBS quits") }
        // Each problem once (a folder that cannot be opened fails the load and the save alike).
        var distinct: [String] = []
        for problem in problems where !distinct.contains(problem) { distinct.append(problem) }
        reporter.report(distinct.isEmpty ? nil : distinct.joined(separator: "; "))
        return credentials
    }

    /// The secrets in `id`'s file, `given` saved into it first when they are new to it (over a
    /// file that could not be read too: a link, a damaged file is replaced); what went wrong.
    private static func file(_ store: SecretStore, _ id: SecretID, saving given: [String: String],
                             log: Logger) -> ([String: String], [String]) {
        var stored: [String: String] = [:]
        var problems: [String] = []
        do {
            stored = try store.load(id: id)
        } catch {
            problems.append(error.description)
        }
        guard !given.isEmpty, stored.merging(given, uniquingKeysWith: { $1 }) != stored else { return (stored, problems) }
        stored.merge(given) { $1 }
        do {
            try store.save(stored, id: id)
            log.info("secrets: \(given.keys.sorted().joined(separator: ", ")) saved in \(store.path(of: id))")
            return (stored, [])
        } catch {
            return (stored, problems + [error.description])
        }
    }

    /// "Forget": the newest line's file goes. The credentials in use are the caller's to drop.
    mutating func forget() {
        sent = [:]
        reporter.report(nil)
        reporter.forgetLogged()
        guard let store, let id else { return }
        do {
            try store.delete(id: id)
            log.info("secrets: forgotten (\(store.path(of: id)) deleted)")
        } catch {
            log.error("\(error.description)")
        }
    }
}
