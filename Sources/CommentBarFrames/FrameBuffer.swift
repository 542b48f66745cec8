// SPDX-License-Identifier: GPL-2.0-or-later
/// Memory a frame is drawn into: ARGB32, premultiplied, native-endian (Cairo's
/// CAIRO_FORMAT_ARGB32: BGRA bytes on little-endian machines), owned by a pool.
public struct FrameBuffer {
    public let pixels: UnsafeMutableRawPointer
    public let width: Int
    public let height: Int
    /// Bytes per row, at least `width * 4`.
    public let stride: Int

    public init(pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) {
        precondition(width > 0 && height > 0 && stride >= width * 4, "frame geometry")
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stride = stride
    }

    public var byteCount: Int { stride * height }
}

/// A fixed set of frame buffers reused for every frame: the renderer borrows
/// the back buffer, draws into it and publishes it. Implemented in memory
/// (`MemoryFramePool`) and in shared memory for OBS (`SharedMemoryFramePool`).
public protocol FramePool: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// The buffer the renderer may write now. The same until `publish`.
    func backBuffer() -> FrameBuffer
    /// Which slot `backBuffer` is. A slot keeps what the renderer last wrote into
    /// it (readers never write), so the renderer need only update what changed since.
    var backSlot: Int { get }
    /// Hands the back buffer over as the newest complete frame.
    func publish()
    /// The frame published last, which the renderer may read (never write)
    /// until its next `publish`: the base the next frame is built on.
    func lastPublished() -> FrameBuffer?
}

/// Three buffers in this process's memory, allocated once.
public final class MemoryFramePool: FramePool {
    public let width: Int
    public let height: Int
    public let stride: Int
    private let storage: UnsafeMutableRawPointer
    private var back = 0
    /// The slot last published, for callers that read frames back (tests, `render`).
    public private(set) var newest: Int?
    public private(set) var publishedCount = 0

    public init(width: Int, height: Int, slots: Int = 3) {
        self.width = width
        self.height = height
        self.stride = width * 4
        self.slotCount = slots
        storage = UnsafeMutableRawPointer.allocate(byteCount: stride * height * slots, alignment: 64)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height * slots)
    }

    private let slotCount: Int

    deinit { storage.deallocate() }

    private func buffer(slot: Int) -> FrameBuffer {
        FrameBuffer(pixels: storage + slot * stride * height, width: width, height: height, stride: stride)
    }

    public func backBuffer() -> FrameBuffer { buffer(slot: back) }
    public var backSlot: Int { back }

    public func publish() {
        newest = back
        publishedCount += 1
        back = (back + 1) % slotCount
    }

    /// The newest published frame, if any.
    public var newestFrame: FrameBuffer? { newest.map { buffer(slot: $0) } }

    public func lastPublished() -> FrameBuffer? { newestFrame }
}
