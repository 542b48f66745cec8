// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarNet
import NIOCore
import XCTest
@testable import NiconicoPlatform

final class DelimitedMessageReaderTests: XCTestCase {
    private func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        repeat {
            let byte = UInt8(value & 0x7F)
            value >>= 7
            out.append(value == 0 ? byte : byte | 0x80)
        } while value != 0
        return out
    }

    private func split(_ bytes: [UInt8], chunk: Int) throws -> [[UInt8]] {
        var splitter = DelimitedFrameSplitter()
        var frames: [[UInt8]] = []
        var index = 0
        while index < bytes.count {
            splitter.append(Array(bytes[index..<min(index + chunk, bytes.count)]))
            index += chunk
            while let frame = try splitter.nextMessage() { frames.append(frame) }
        }
        XCTAssertEqual(splitter.pendingBytes, 0)
        return frames
    }

    func testViewStreamInAnyChunking() throws {
        for chunk in [1, 2, 3, 7, 64, 4096] {
            let entries = try split(NDGRFixtures.viewStream, chunk: chunk).map {
                try NDGRChunkedEntry(serializedBytes: $0)
            }
            XCTAssertEqual(entries.count, 3, "chunk \(chunk)")
            guard entries.count == 3 else { continue }
            guard case .segment(let segment)? = entries[0].entry else { return XCTFail("not a segment") }
            XCTAssertEqual(segment.uri, "https://mpn.live.nicovideo.jp/data/segment/v4/s1")
            XCTAssertEqual(segment.until.seconds, 1722837616)
            guard case .previous? = entries[1].entry else { return XCTFail("not a previous") }
            guard case .next(let next)? = entries[2].entry else { return XCTFail("not a next") }
            XCTAssertEqual(next.at, 1722837616)
        }
    }

    func testEmptyMessage() throws {
        XCTAssertEqual(try split([0, 0], chunk: 1), [[], []])
    }

    func testHugeLengthsAreRefusedAtTheirPrefix() {
        for length: UInt64 in [1 << 63, UInt64.max, 100 << 20, UInt64(DelimitedFrameSplitter.maxMessageBytes) + 1] {
            var splitter = DelimitedFrameSplitter()
            splitter.append(varint(length))
            XCTAssertThrowsError(try splitter.nextMessage(), "\(length)") { error in
                XCTAssertEqual(error as? DelimitedFrameSplitter.Failure, .oversized(length))
            }
        }
        var fits = DelimitedFrameSplitter()
        fits.append(varint(UInt64(DelimitedFrameSplitter.maxMessageBytes)))
        XCTAssertNil(try fits.nextMessage())
    }

    func testOverlongVarintsAreRefused() {
        var splitter = DelimitedFrameSplitter()
        splitter.append([UInt8](repeating: 0xFF, count: 11))
        XCTAssertThrowsError(try splitter.nextMessage()) { error in
            XCTAssertEqual(error as? DelimitedFrameSplitter.Failure, .badPrefix)
        }
        var incomplete = DelimitedFrameSplitter()
        incomplete.append([0xFF, 0xFF])
        XCTAssertNil(try incomplete.nextMessage())
    }

    func testTruncatedMessageWaits() throws {
        var splitter = DelimitedFrameSplitter()
        splitter.append(varint(100) + [1, 2, 3])
        XCTAssertNil(try splitter.nextMessage())
        XCTAssertEqual(splitter.pendingBytes, 4)
    }

    func testReaderSkipsUndecodableMessagesAndReportsCutOffs() async throws {
        let good = NDGRFixtures.namedChat
        let stream = varint(UInt64(good.count)) + good + varint(5) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
            + varint(UInt64(good.count)) + good + varint(50) + [1, 2]
        let (body, sink) = AsyncStream.makeStream(of: [UInt8].self)
        for index in stride(from: 0, to: stream.count, by: 5) {
            sink.yield(Array(stream[index..<min(index + 5, stream.count)]))
        }
        sink.finish()
        var ids: [String] = []
        let end = try await DelimitedMessageReader.read(body, as: NDGRChunkedMessage.self,
                                                        problems: InputProblemLog(source: "test")) { message in
            ids.append(message.meta.id)
            return true
        }
        XCTAssertEqual(ids, ["m1", "m1"])
        XCTAssertEqual(end, .cutOff)
    }

    func testReaderStopsWhenAsked() async throws {
        let entries = NDGRFixtures.viewStream
        let (body, sink) = AsyncStream.makeStream(of: [UInt8].self)
        sink.yield(entries)
        sink.finish()
        var count = 0
        let end = try await DelimitedMessageReader.read(body, as: NDGRChunkedEntry.self,
                                                        problems: InputProblemLog(source: "test")) { _ in
            count += 1
            return false
        }
        XCTAssertEqual(count, 1)
        XCTAssertEqual(end, .stopped)
    }
}
