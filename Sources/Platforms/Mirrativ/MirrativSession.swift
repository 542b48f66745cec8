// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarSupport
import FoundationEssentials

/// The streamer's own Mirrativ login session (its comments need one since 2025-09): the
/// `mirrativ_session` source setting (never in OBS's saved settings: the shim sends it once, the
/// renderer keeps it in a 0600 file, `SecretStore`, and gives it back as a credential), or for
/// the CLI `COMMENTBAR_MIRRATIV_SESSION` or the file named by `COMMENTBAR_MIRRATIV_SESSION_FILE` —
/// never a command-line argument, which any user of the machine can read. It is sent only
/// as a Cookie header over HTTPS to Mirrativ's own API host, and never appears in a log
/// line, an error, a status or `description`.
struct MirrativSession: Sendable, Equatable, CustomStringConvertible {
    /// The Cookie header's value: `mr_id=VALUE`, or the pasted `name=value; …` as is.
    let cookie: String

    static let settingKey = "mirrativ_session"
    static let environmentKey = "COMMENTBAR_MIRRATIV_SESSION"
    static let fileEnvironmentKey = "COMMENTBAR_MIRRATIV_SESSION_FILE"
    static let maxBytes = 4096

    var description: String { "<mirrativ session, redacted>" }

    /// The session from the request or, when it has none, the environment; nil when there is
    /// none at all. A value that could not be a cookie is refused without quoting it.
    static func find(in request: FeedRequest,
                     environment: [String: String] = ProcessInfo.processInfo.environment) throws(FeedConfigError) -> MirrativSession? {
        var text = request.credentials[settingKey] ?? ""
        if text.isEmpty { text = environment[environmentKey] ?? "" }
        if text.isEmpty, let path = environment[fileEnvironmentKey], !path.isEmpty {
            guard (try? RegularFile.check(path, maxBytes: maxBytes)) != nil,
                  let bytes = FileManager.default.contents(atPath: path), bytes.count <= maxBytes else {
                throw FeedConfigError("the Mirrativ session file (\(fileEnvironmentKey)) cannot be read or is too large")
            }
            text = String(decoding: bytes, as: UTF8.self)
        }
        return try parse(text)
    }

    static func parse(_ raw: String) throws(FeedConfigError) -> MirrativSession? {
        var text = raw.trimmingWhitespace(andNewlines: true)
        if text.lowercased().hasPrefix("cookie:") { text = String(text.dropFirst(7)).trimmingWhitespace(andNewlines: true) }
        guard !text.isEmpty else { return nil }
        // Printable ASCII only: a line break would inject headers.
        guard text.utf8.count <= maxBytes, text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else {
            throw FeedConfigError("the Mirrativ session is not a cookie value (printable ASCII, at most \(maxBytes) bytes)")
        }
        return MirrativSession(cookie: text.contains("=") ? text : "mr_id=\(text)")
    }
}
