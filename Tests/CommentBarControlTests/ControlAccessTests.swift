// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarControl
import Testing

@Suite struct ControlAccessTests {
    let access = ControlAccess(port: 11190, token: TokenWatch(fixed: TestSupport.token), sessions: PageSessions())

    @Test func onlyTheServersOwnLoopbackNamesAreHosts() {
        #expect(access.host("127.0.0.1:11190") == "127.0.0.1:11190")
        #expect(access.host("[::1]:11190") == "[::1]:11190")
        #expect(access.host("LocalHost:11190") == "localhost:11190")
        for foreign in ["evil.example:11190", "127.0.0.1", "127.0.0.1:80", "localhost:11191", "127.0.0.2:11190",
                        "attacker.localhost:11190", "", "127.0.0.1:11190.evil.example"] {
            #expect(access.host(foreign) == nil, "\(foreign) was taken for this server")
        }
        #expect(access.host(nil) == nil)
    }

    @Test func aBrowsersOriginMustBeThePagesOwn() {
        #expect(access.originAllowed(nil, host: "127.0.0.1:11190"))
        #expect(access.originAllowed("http://127.0.0.1:11190", host: "127.0.0.1:11190"))
        #expect(!access.originAllowed("http://evil.example", host: "127.0.0.1:11190"))
        #expect(!access.originAllowed("null", host: "127.0.0.1:11190"))
        // The same machine under another name, or another port, is another origin.
        #expect(!access.originAllowed("http://localhost:11190", host: "127.0.0.1:11190"))
        #expect(!access.originAllowed("http://127.0.0.1:8080", host: "127.0.0.1:11190"))
        #expect(!access.originAllowed("https://127.0.0.1:11190", host: "127.0.0.1:11190"))
    }

    @Test func theTokenComesAsBearerAndTheQueryOnlyWhereAllowed() {
        let token = TestSupport.token
        #expect(access.credential(authorization: "Bearer \(token)", cookie: nil, queryToken: nil, underPage: false) == .bearer)
        #expect(access.credential(authorization: "Bearer \(token)", cookie: nil, queryToken: nil, underPage: true) == .bearer)
        #expect(access.credential(authorization: nil, cookie: nil, queryToken: token, underPage: false) == .none)
        #expect(access.credential(authorization: nil, cookie: nil, queryToken: token, underPage: false, allowsQuery: true)
                == .query)
        #expect(access.credential(authorization: "Bearer \(token.dropLast())0", cookie: nil, queryToken: nil,
                                  underPage: false) == .none)
        #expect(access.credential(authorization: "Basic \(token)", cookie: nil, queryToken: "", underPage: false) == .none)
        // The token is never a cookie.
        #expect(access.credential(authorization: nil, cookie: "commentbar_session=\(token)", queryToken: nil,
                                  underPage: true) == .none)
    }

    @Test func aSessionCookieCountsUnderThePagesPathOnlyWhicheverOfItsNameMatches() throws {
        let code = access.sessions.issueCode()
        let session = try #require(access.sessions.redeem(code))
        let junk = String(repeating: "0", count: 64)
        for header in ["commentbar_session=\(session)", "commentbar_session=\(junk); commentbar_session=\(session)",
                       "a=1; commentbar_session=\(junk);commentbar_session=\(session); b=2"] {
            #expect(access.credential(authorization: nil, cookie: header, queryToken: nil, underPage: true) == .session(session),
                    "\(header)")
            #expect(access.credential(authorization: nil, cookie: header, queryToken: nil, underPage: false) == .none)
        }
        #expect(access.credential(authorization: nil, cookie: "xcommentbar_session=\(session)", queryToken: nil,
                                  underPage: true) == .none)
        #expect(ControlAccess.cookieValues("a=1; b=2;a=3 ; a=", name: "a") == ["1", "3 ", ""])
    }

    @Test func everyTokenHolderIsOneClientEachSessionAnother() {
        #expect(ControlAccess.Credential.bearer.client == ControlAccess.Credential.query.client)
        #expect(ControlAccess.Credential.session("a").client != ControlAccess.Credential.session("b").client)
        #expect(ControlAccess.Credential.session("a").client != ControlAccess.Credential.bearer.client)
        #expect(ControlAccess.Credential.none.client == nil)
    }

    @Test func thePagesPathIsItsOwnAndNothingElse() {
        let sessions = PageSessions()
        let path = sessions.path
        #expect(sessions.mount(of: path + "/api/state") == (true, "/api/state"))
        #expect(sessions.mount(of: path) == (true, ""))
        #expect(sessions.mount(of: path + "x/api/state") == (false, path + "x/api/state"))
        #expect(sessions.mount(of: "/api/state") == (false, "/api/state"))
        #expect(PageSessions().path != path, "a new path at every start")
    }
}
