// SPDX-License-Identifier: GPL-2.0-or-later
import CGLib

/// How a client (the dock, `commentbar control-url`) learns that what listens on the control port
/// is this user's renderer before it sends the token there. Any program of any user can bind a
/// free loopback port: one that bound the Control port while the renderer was not running (OBS
/// starting, the box unticked, the port moved) would otherwise be handed the long-lived token.
///
/// The client sends `GET /api/hello?nonce=N` (N: 32 fresh random bytes in hex), with no
/// credential. The renderer answers `{"proof": hex(HMAC-SHA256(key: the token, message:
/// "commentbar-control-hello|" + the port it listens on + "|" + N))}` (the key is the token's 64
/// characters as they are in the file). The client computes the same with the token it read and
/// the port it connected to, compares in constant time, and only then sends the token.
///
/// Why this holds:
/// - A squatter knows no token (the file is 0600 in a 0700 folder), so it cannot make a proof;
///   a fresh nonce each time means no proof it saw before can be replayed.
/// - It cannot relay the question to a renderer on another port either: that renderer signs its
///   own port, which is not the one the client connected to. (The renderer binds 127.0.0.1 before
///   ::1 and gives up if either is taken, so no squatter shares its port on the other address.)
/// - The renderer signs only messages with this fixed prefix, and the token is otherwise only
///   compared, never HMAC'd: the hello gives no one a signature usable for anything else.
/// - A program of the same user can read the token file anyway: it is not what this guards.
///
/// The proof is of the listener, not of one TCP connection: clients ask again right before each
/// request (or short batch of requests) that carries the token, so the only gap left is the
/// instant between the proof and that request, in which the renderer would have to close its
/// port and another user's program bind it.
///
/// HMAC-SHA256 is GLib's (`g_compute_hmac_for_data`, already in the renderer for SHA-256); the
/// dock uses Qt's `QMessageAuthenticationCode` for the same computation.
public enum ControlHello {
    public static let path = "/api/hello"
    static let messagePrefix = "commentbar-control-hello|"
    /// 32 bytes, as lower-case hex.
    public static let nonceHexDigits = 64

    /// A fresh nonce from the system's generator.
    public static func makeNonce() -> String { ControlToken.random(hexDigits: nonceHexDigits) }

    /// Whether `text` is a nonce as the route takes it: 64 lower- or upper-case hex digits.
    public static func isNonce(_ text: some StringProtocol) -> Bool {
        text.utf8.count == nonceHexDigits && text.utf8.allSatisfy {
            (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0)
        }
    }

    /// The message signed for `port` and `nonce`.
    static func message(port: Int, nonce: String) -> String {
        messagePrefix + String(port) + "|" + nonce.lowercased()
    }

    /// hex(HMAC-SHA256(token, message(port, nonce))), 64 lower-case hex digits.
    public static func proof(token: String, port: Int, nonce: String) -> String {
        let key = Array(token.utf8)
        let data = Array(message(port: port, nonce: nonce).utf8)
        let hex = key.withUnsafeBufferPointer { key in
            data.withUnsafeBufferPointer { data in
                g_compute_hmac_for_data(G_CHECKSUM_SHA256, key.baseAddress, gsize(key.count),
                                        data.baseAddress, gsize(data.count))
            }
        }
        // GLib returns NULL only for a checksum type it does not know; SHA-256 is always there.
        guard let hex else { return "" }
        defer { g_free(hex) }
        return String(cString: hex)
    }

    /// Whether `given` is the proof the renderer holding `token` and listening on `port` gives
    /// for `nonce` (constant time, whatever `given` is).
    public static func holds(_ given: some StringProtocol, token: String, port: Int, nonce: String) -> Bool {
        let expected = proof(token: token, port: port, nonce: nonce)
        return !expected.isEmpty && ControlToken.matches(given.lowercased(), expected)
    }

    /// The JSON body of the answer.
    struct Answer: Codable, Sendable {
        var proof: String
    }
}

extension ControlRoutes {
    /// `GET /api/hello?nonce=N`: the proof for `N` and this server's port (`ControlHello`).
    func hello(_ request: ControlRequest) -> ControlResponse {
        guard let nonce = request.query["nonce"], ControlHello.isNonce(nonce) else {
            return .error(.badRequest, "give ?nonce= with 32 random bytes in hex (64 digits)")
        }
        guard let token = access.token.current() else {
            return .error(.serviceUnavailable, "the control token cannot be read: see the renderer's log")
        }
        return .json(ControlHello.Answer(proof: ControlHello.proof(token: token, port: access.port, nonce: nonce)))
    }
}
