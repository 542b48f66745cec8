// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarControl
import Glibc
import XCTest

/// A hundred connections that say nothing: they push each other out of the few slots kept for
/// connections without a credential; memory stays flat and the server answers after. An XCTest,
/// not a swift-testing test: it measures this process's resident memory, and XCTest runs its
/// tests one after another, where swift-testing runs every test of the bundle side by side (a
/// clean clone's make check found 21.9 MiB grown there, the other tests' allocations).
final class SilentConnectionsMemoryTests: XCTestCase {
    func testAHundredSilentConnectionsTakeOnlyTheUnprovenSlots() async throws {
        let server = try await TestSupport.startServer()
        let before = TestSupport.residentKiB()
        var sockets: [Int32] = []
        for _ in 0..<100 { sockets.append(ControlServerTests.openSocket(port: server.port)) }
        let options = ControlServer.Options()
        let pushedOut = await TestSupport.eventually { await server.counts().evicted >= 100 - options.maxUnproven }
        XCTAssertTrue(pushedOut, "the silent connections were not pushed out of the unproven slots")
        let counts = await server.counts()
        XCTAssertTrue(counts.open <= options.maxUnproven && counts.refused == 0, "\(counts)")
        let grown = TestSupport.residentKiB() - before
        XCTAssertLessThan(grown, 16 * 1024, "resident memory grew by \(grown) KiB")
        let answer = try await TestSupport.request(server.port, "/api/state")
        XCTAssertEqual(answer.status, .ok)
        for fd in sockets { close(fd) }
        let allClosed = await TestSupport.eventually { await server.counts().open == 0 }
        XCTAssertTrue(allClosed, "the closed sockets' connections stayed open")
        await server.stop()
    }
}
