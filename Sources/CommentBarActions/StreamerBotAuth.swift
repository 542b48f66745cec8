// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import FoundationEssentials

/// Streamer.bot's WebSocket authentication (docs.streamer.bot, api/websocket/guide/authentication;
/// the obs-websocket scheme): the server's `Hello` carries `authentication: {salt, challenge}`, and
/// the client answers `Authenticate` with base64(sha256(base64(sha256(password + salt)) + challenge)).
enum StreamerBotAuth {
    static func answer(password: String, salt: String, challenge: String) -> String {
        let secret = Data(GLibSHA256.digest(Array((password + salt).utf8))).base64EncodedString()
        return Data(GLibSHA256.digest(Array((secret + challenge).utf8))).base64EncodedString()
    }
}
