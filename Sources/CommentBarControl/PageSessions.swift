// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// How a browser gets into the control page without the token ever being in an address or a
/// command line: whoever holds the token (the renderer's "Open control page", `commentbar
/// control-url` over `POST /api/page-link`) gets a one-time code, valid for `codeLifetime` and
/// used once; the page's address carries it, and the server swaps it for a session cookie and
/// sends the browser on to the address without it (a history entry holds a code already spent).
///
/// The page and its API live under `path`, 128 random bits chosen at each server start, and the
/// cookie is scoped to it: a browser sends it to no other address, so a server on another port of
/// 127.0.0.1 (cookies do not keep ports apart) never receives it. The path is no secret that
/// grants anything: without the cookie it answers 401 like any other.
final class PageSessions: Sendable {
    static let codeLifetime = Duration.seconds(60)
    /// Codes not yet used, and sessions: the oldest go first past these.
    static let maxCodes = 16
    static let maxSessions = 32
    static let cookieName = "commentbar_session"

    /// `/p/` and 32 hex digits, without a trailing slash.
    let path: String
    /// How long a code works.
    let lifetime: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Mutex(State())

    /// Codes already presented once, remembered so a second try is told apart from a wrong code.
    static let maxSpent = 64

    struct State {
        var codes: [(code: String, expires: ContinuousClock.Instant)] = []
        var sessions: [String] = []
        var spent: [String] = []
    }

    /// What presenting a code gave.
    enum Redemption: Equatable {
        /// A new session (its cookie value).
        case session(String)
        /// The code was presented before: a browser that reopened its link, or someone who got
        /// the link first (the user is told, and the log says so).
        case alreadyUsed
        case expired
        case unknown
    }

    /// `lifetime` and `now`: tests give their own.
    init(lifetime: Duration = PageSessions.codeLifetime,
         now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        path = "/p/" + ControlToken.random(hexDigits: 32)
        self.lifetime = lifetime
        self.now = now
    }

    /// A new one-time code.
    func issueCode() -> String {
        let code = ControlToken.random(hexDigits: 32)
        let expires = now() + lifetime
        state.withLock { state in
            let time = now()
            state.codes.removeAll { $0.expires <= time }
            if state.codes.count >= Self.maxCodes { state.codes.removeFirst() }
            state.codes.append((code, expires))
        }
        return code
    }

    /// The code swapped for a new session (its cookie value); nil when it is unknown, used or
    /// expired.
    func redeem(_ code: String) -> String? {
        if case .session(let session) = use(code) { return session }
        return nil
    }

    /// The code swapped for a new session, or why not. A code is gone after one try that names
    /// it; it is remembered (the newest `maxSpent`) as spent.
    func use(_ code: String) -> Redemption {
        let time = now()
        return state.withLock { state -> Redemption in
            guard let index = state.codes.firstIndex(where: { ControlToken.matches(code, $0.code) }) else {
                let spent = state.spent.reduce(false) { found, spent in ControlToken.matches(code, spent) || found }
                return spent ? .alreadyUsed : .unknown
            }
            let (spentCode, expires) = state.codes.remove(at: index)
            if state.spent.count >= Self.maxSpent { state.spent.removeFirst() }
            state.spent.append(spentCode)
            guard time < expires else { return .expired }
            let session = ControlToken.random(hexDigits: 64)
            if state.sessions.count >= Self.maxSessions { state.sessions.removeFirst() }
            state.sessions.append(session)
            return .session(session)
        }
    }

    /// Whether `value` is a live session (compared in constant time with each).
    func isSession(_ value: some StringProtocol) -> Bool {
        state.withLock { state in
            state.sessions.reduce(false) { found, session in ControlToken.matches(value, session) || found }
        }
    }

    /// Every code and session ends (the token changed).
    func revokeAll() {
        state.withLock { $0 = State() }
    }

    /// `Set-Cookie` for a session: under the page's path only, never to scripts, never with a
    /// request another site starts.
    func setCookie(_ session: String) -> String {
        "\(Self.cookieName)=\(session); Path=\(path)/; HttpOnly; SameSite=Strict"
    }

    /// Where a request goes: under the page's path (its path inside it), or the root.
    func mount(of requestPath: String) -> (page: Bool, path: String) {
        guard requestPath.hasPrefix(path) else { return (false, requestPath) }
        let inside = String(requestPath.dropFirst(path.count))
        guard inside.isEmpty || inside.hasPrefix("/") else { return (false, requestPath) }
        return (true, inside)
    }
}
