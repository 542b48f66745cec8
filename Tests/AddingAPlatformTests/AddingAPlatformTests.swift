// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarFrames
import CommentBarRender
@testable import CommentBarServices
import FoundationEssentials
import Synchronization
import XCTest

/// A service added in a test target, with no edit anywhere else, appears everywhere a real one
/// does: pasted URLs pick it, `service:id` names it, its feed runs in a bar's stream plan, its
/// rows carry and draw its badge, and `commentbar services` lists its help for the OBS shim.
final class AddingAPlatformTests: XCTestCase {
    private let registry = ServiceRegistry(ServiceRegistry.all + [FakeTube.description])

    func testItsURLsPickIt() throws {
        let table = registry.streamURLs
        XCTAssertEqual(try StreamAddress.parse("https://www.faketube.example/SomeOne", table: table),
                       StreamAddress(service: "faketube", streamID: "someone"))
        XCTAssertEqual(try StreamAddress.parse("faketube.example/someone/videos", table: table),
                       StreamAddress(service: "faketube", streamID: "someone"))
        XCTAssertEqual(try StreamAddress.parse("fake://Channel", table: table),
                       StreamAddress(service: "faketube", streamID: "Channel"))
        XCTAssertEqual(try StreamAddress.parse("FakeTube:SomeOne", table: table),
                       StreamAddress(service: "faketube", streamID: "someone"), "service:id, lower case as its ids")
        XCTAssertThrowsError(try StreamAddress.parse("fake://", table: table)) { error in
            XCTAssertEqual((error as? FeedConfigError)?.message, "\"fake://\": a fake:// address needs the channel")
        }
        // The real platforms are still found, and the help names the new one.
        XCTAssertEqual(try StreamAddress.parse("https://twitch.tv/name", table: table).service, "twitch")
        XCTAssert(table.supportedHelp.contains(", FakeTube URL, "), table.supportedHelp)
        XCTAssert(table.supportedHelp.contains("a fake://CHANNEL address, or service:id."), table.supportedHelp)
        // The product's registry does not have it.
        XCTAssertThrowsError(try StreamAddress.parse("https://faketube.example/someone",
                                                     table: ServiceRegistry.product.streamURLs))
    }

    func testItsFeedRunsInAStreamPlanWithItsBadge() async throws {
        var settings = BarSettings()
        settings.feeds = ["https://faketube.example/someone", "demo:"]
        let plan = StreamPlan(settings: settings, registry: registry)
        XCTAssertEqual(plan.problems, [])
        XCTAssertEqual(plan.streams.map(\.service), ["faketube", "demo"])
        XCTAssertEqual(plan.streams.map(\.name), ["FakeTube", "Demo (built-in sample chat)"])
        XCTAssertEqual(plan.streams[0].badge, FakeTube.badge)
        XCTAssertEqual(plan.streams[1].badge, .plain)

        let stream = plan.streams[0]
        let origin = BarState.Origin(index: 0, count: 2, name: stream.name, service: stream.service, badge: stream.badge)
        let state = Mutex(BarState())
        await stream.feed.run { event in state.withLock { $0.apply(event, from: origin) } }
        let lines = state.withLock { $0.lines }
        XCTAssertEqual(lines.map(\.text), ["hello from someone"])
        XCTAssertEqual(lines.map(\.platformBadge), [FakeTube.badge])
    }

    /// The row's badge is drawn in the new platform's colour (the renderer knows no platform).
    func testItsRowsDrawItsBadge() throws {
        func frame(badge: PlatformBadge) throws -> [UInt8] {
            var state = BarState()
            let origin = BarState.Origin(index: 0, count: 2, name: "FakeTube", service: "faketube", badge: badge)
            state.apply(.comment(ChatLine(id: "1", user: "fan", text: "hello")), from: origin)
            let pool = MemoryFramePool(width: 640, height: 200)
            BarRenderer(settings: BarSettings(), width: 640, height: 200).render(state, now: 0, into: pool)
            let frame = try XCTUnwrap(pool.newestFrame)
            return Array(UnsafeRawBufferPointer(start: frame.pixels, count: frame.byteCount))
        }
        // ARGB32 in memory on a little-endian machine: B, G, R, A; the badge is opaque.
        func pixels(_ bytes: [UInt8], of color: RGBColor) -> Int {
            stride(from: 0, to: bytes.count - 3, by: 4).count(where: { offset in
                bytes[offset] == color.blue && bytes[offset + 1] == color.green && bytes[offset + 2] == color.red
                    && bytes[offset + 3] == 0xFF
            })
        }
        let badge = registry.badge(service: "faketube")
        XCTAssertEqual(badge, FakeTube.badge)
        XCTAssertGreaterThan(pixels(try frame(badge: badge), of: badge.color), 20, "the badge's square is drawn")
        XCTAssertEqual(pixels(try frame(badge: .plain), of: badge.color), 0, "the colour comes from the badge alone")
    }

    func testServicesListingCarriesItsHelp() throws {
        let header = ServiceListing.cHeader(registry)
        XCTAssert(header.contains("\tX(\"faketube\", \"FakeTube\") \\\n"), header)
        let help = "\tX(\"faketube\", \"the FakeTube channel\", \(ServiceListing.cString(FakeTube.helpJapanese))) \\\n"
        XCTAssert(header.contains(help), header)
        XCTAssertFalse(ServiceListing.cHeader(.product).contains("faketube"))

        struct Entry: Decodable, Equatable {
            var id: String
            var name: String
            var stream_id: String
            var stream_id_ja: String
        }
        let entries = try JSONDecoder().decode([Entry].self, from: Data(try ServiceListing.json(registry).utf8))
        XCTAssertEqual(entries.last, Entry(id: "faketube", name: "FakeTube", stream_id: "the FakeTube channel",
                                           stream_id_ja: FakeTube.helpJapanese))
        XCTAssert(ServiceListing.text(registry).hasSuffix("faketube\tFakeTube\tthe FakeTube channel\n"))
    }
}
