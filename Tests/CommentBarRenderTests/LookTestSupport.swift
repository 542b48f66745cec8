// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames
import Foundation
@testable import CommentBarRender
import XCTest

/// Settings as a source's JSON gives them (the theme applied as `serve` applies it).
func lookSettings(_ json: String, width: Int = 1280, height: Int = 360) throws -> BarSettings {
    var settings = try BarSettings.decode(json: Data(json.utf8))
    settings.width = width
    settings.height = height
    return settings
}

/// A comment row with a name colour of its own.
func row(_ id: String, _ user: String, _ text: String, color: String? = nil, badges: [String] = []) -> ChatLine {
    ChatLine(id: id, user: user, text: text, color: color.flatMap(RGBColor.init(hex:)), badges: badges)
}

/// A renderer and its pool, drawing one state after another.
final class LookBench {
    let renderer: BarRenderer
    let pool: MemoryFramePool
    var state = BarState()

    init(_ settings: BarSettings) {
        renderer = BarRenderer(settings: settings, width: settings.width, height: settings.height)
        pool = MemoryFramePool(width: settings.width, height: settings.height)
    }

    @discardableResult
    func render(at now: Double) -> Bool { renderer.render(state, now: now, into: pool) }

    func add(_ line: ChatLine) { state.apply(.comment(line)) }

    var frame: [UInt8] { pool.newestFrame.map(bytes) ?? [] }

    /// Where each element of the last frame is, by name.
    var elements: [String: PixelRect] {
        Dictionary(renderer.drawnElements.map { ($0.name, $0.rect) }, uniquingKeysWith: { first, _ in first })
    }

    /// The largest alpha in `rect` of the newest frame.
    func maxAlpha(in rect: PixelRect) -> UInt8 {
        guard let frame = pool.newestFrame else { return 0 }
        var most: UInt8 = 0
        for y in max(0, rect.y)..<min(frame.height, rect.maxY) {
            for x in max(0, rect.x)..<min(frame.width, rect.maxX) {
                most = max(most, frame.pixels.load(fromByteOffset: y * frame.stride + x * 4 + 3, as: UInt8.self))
            }
        }
        return most
    }
}
