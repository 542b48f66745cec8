// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarControl
import Testing

@Suite struct ControlAccessTests {
    let access = ControlAccess(port: 11190, token: TestSupport.token)

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
        // The same machine under another name is another origin.
        #expect(!access.originAllowed("http://localhost:11190", host: "127.0.0.1:11190"))
        #expect(!access.originAllowed("https://127.0.0.1:11190", host: "127.0.0.1:11190"))
    }

    @Test func theTokenComesAsBearerCookieOrQuery() {
        let token = TestSupport.token
        #expect(access.credential(authorization: "Bearer \(token)", cookie: nil, queryToken: nil) == .bearer)
        #expect(access.credential(authorization: nil, cookie: "a=1; commentbar_token=\(token); b=2", queryToken: nil) == .cookie)
        #expect(access.credential(authorization: nil, cookie: nil, queryToken: token) == .query)
        #expect(access.credential(authorization: "Bearer \(token.dropLast())0", cookie: nil, queryToken: nil) == .none)
        #expect(access.credential(authorization: "Basic \(token)", cookie: "commentbar_token=x", queryToken: "") == .none)
        #expect(access.credential(authorization: nil, cookie: "xcommentbar_token=\(token)", queryToken: nil) == .none)
        #expect(access.credential(authorization: nil, cookie: nil, queryToken: nil) == .none)
    }

    @Test func theCookieIsStrictHttpOnlyForTheWholeSite() {
        #expect(access.setCookie == "commentbar_token=\(TestSupport.token); Path=/; HttpOnly; SameSite=Strict")
    }
}
