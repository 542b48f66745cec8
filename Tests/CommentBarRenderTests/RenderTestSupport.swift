// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CommentBarCore
import CommentBarFeeds
import CommentBarFrames
@testable import CommentBarRender
import Foundation
import XCTest

/// Renders one state from nothing: a fresh renderer, no caches.
func renderFromNothing(_ state: BarState, obs: OBSLiveState = OBSLiveState(), now: Double,
                       settings: BarSettings = BarSettings(), width: Int = 1280, height: Int = 360) -> [UInt8] {
    let pool = MemoryFramePool(width: width, height: height)
    let renderer = BarRenderer(settings: settings, width: width, height: height)
    renderer.render(state, obs: obs, now: now, into: pool)
    return pool.newestFrame.map(bytes) ?? []
}

func bytes(_ frame: FrameBuffer) -> [UInt8] {
    Array(UnsafeRawBufferPointer(start: frame.pixels, count: frame.byteCount))
}

/// Compares with a golden PNG: premultiplied ARGB bytes, both through Cairo.
/// `UPDATE_GOLDEN=1` writes the golden instead.
func assertMatchesGolden(_ frame: FrameBuffer, named name: String, file: StaticString = #filePath,
                         line: UInt = #line) throws {
    let directory = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().appendingPathComponent("Golden")
    let path = directory.appendingPathComponent(name).path
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
        try PNGFile.write(frame, to: path)
        return
    }
    let golden: OpaquePointer = cairo_image_surface_create_from_png(path)
    defer { cairo_surface_destroy(golden) }
    guard cairo_surface_status(golden) == CAIRO_STATUS_SUCCESS else {
        XCTFail("\(name): golden image missing or unreadable; run with UPDATE_GOLDEN=1", file: file, line: line)
        return
    }
    guard Int(cairo_image_surface_get_width(golden)) == frame.width,
          Int(cairo_image_surface_get_height(golden)) == frame.height
    else {
        return XCTFail("\(name): golden is \(cairo_image_surface_get_width(golden))x\(cairo_image_surface_get_height(golden)), frame is \(frame.width)x\(frame.height)", file: file, line: line)
    }
    guard let data = cairo_image_surface_get_data(golden) else { return XCTFail("no pixels", file: file, line: line) }
    let goldenStride = Int(cairo_image_surface_get_stride(golden))
    // PNG stores straight alpha, so a round trip moves premultiplied values by a step or two.
    var differing = 0
    var total = 0
    for row in 0..<frame.height {
        for byte in 0..<(frame.width * 4) {
            let a = Int(frame.pixels.load(fromByteOffset: row * frame.stride + byte, as: UInt8.self))
            let b = Int(data[row * goldenStride + byte])
            total += abs(a - b)
            if abs(a - b) > 24 { differing += 1 }
        }
    }
    let count = frame.width * frame.height * 4
    let meanDifference = Double(total) / Double(count)
    if meanDifference > 1.5 || Double(differing) / Double(count) > 0.01 {
        let actual = FileManager.default.temporaryDirectory.appendingPathComponent("actual-\(name)").path
        try? PNGFile.write(frame, to: actual)
        XCTFail("\(name) differs from its golden: mean \(meanDifference), \(differing) bytes off by > 24; see \(actual)",
                file: file, line: line)
    }
}
