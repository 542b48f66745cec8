// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarPoolABI
import CommentBarFrames
import Glibc

/// The writer's side of the shared-memory frame pool of commentbar_pool.h:
/// the renderer draws straight into pool slots and hands them to the OBS shim
/// through the lock-free triple buffer. docs/pool-abi.md describes the protocol.
public final class SharedMemoryFramePool: FramePool {
    public struct AttachError: Error, CustomStringConvertible {
        public var description: String
    }

    public let width: Int
    public let height: Int
    public let stride: Int
    private let mapping: Mapping
    private var base: UnsafeMutableRawPointer { mapping.base }
    private let slotSize: Int
    private var back = 0
    private var published: Int?
    private var sequence: UInt64 = 0
    /// The latency probe's stamp for the next published frame (0: it shows no traced change).
    private var changeStamp: UInt64 = 0
    /// The audio ring beside the frames, if the shim made one.
    public let audioRing: SharedMemoryAudioRing?

    /// Maps the pool the shim created and passed as `fd`, checking its header.
    public init(fd: Int32) throws(AttachError) {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw AttachError(description: "pool fd \(fd): \(String(cString: strerror(errno)))")
        }
        let size = Int(info.st_size)
        guard size >= Int(CB_POOL_HEADER_SIZE) else {
            throw AttachError(description: "pool fd \(fd): \(size) bytes is smaller than a pool header")
        }
        guard let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapping != MAP_FAILED else {
            throw AttachError(description: "pool fd \(fd): mmap failed: \(String(cString: strerror(errno)))")
        }
        // The ABI's one check (the shim's and the overlay's too), on a copy: the shim may write meanwhile.
        var header = mapping.assumingMemoryBound(to: cb_pool_header.self).pointee
        var layout = cb_pool_layout()
        if let problem = cb_pool_check(&header, UInt64(size), &layout) {
            munmap(mapping, size)
            throw AttachError(description: "pool fd \(fd) is not a comment-bar pool: \(String(cString: problem))")
        }
        self.mapping = Mapping(base: mapping, size: size)
        // Checked: dimensions within 1...8192, every size within the mapping, so none traps here.
        width = Int(layout.width)
        height = Int(layout.height)
        stride = Int(layout.stride)
        slotSize = Int(layout.slot_size)
        audioRing = SharedMemoryAudioRing(mapping: self.mapping, layout: layout)
        store32(\.producer_pid, UInt32(truncatingIfNeeded: getpid()))
        heartbeat()
    }

    /// The mapping, unmapped when the last of the pool and its heartbeat writers goes.
    final class Mapping: Sendable {
        // Sendable: both fields are immutable; the memory they name is shared by design.
        nonisolated(unsafe) let base: UnsafeMutableRawPointer
        let size: Int

        init(base: UnsafeMutableRawPointer, size: Int) {
            self.base = base
            self.size = size
        }

        deinit { munmap(base, size) }
    }

    public func backBuffer() -> FrameBuffer {
        FrameBuffer(pixels: base + Int(CB_POOL_HEADER_SIZE) + back * slotSize, width: width, height: height,
                    stride: stride)
    }

    public var backSlot: Int { back }

    public func publish() {
        sequence += 1
        let slotSequences = field(\.slot_sequence, as: UInt64.self)
        cb_pool_store_u64(field(\.slot_published_ns, as: UInt64.self) + back, MonotonicTime.nanoseconds())
        cb_pool_store_u64(field(\.slot_changed_ns, as: UInt64.self) + back, changeStamp)
        changeStamp = 0
        cb_pool_store_u64(slotSequences + back, sequence)
        cb_pool_store_u64(field(\.sequence, as: UInt64.self), sequence)
        let previous = cb_pool_exchange_handoff(header, UInt32(back) | CB_POOL_FRESH)
        published = back
        let next = Int(previous & CB_POOL_INDEX_MASK)
        // The shim never puts a bad index in the middle; if memory says otherwise,
        // take any slot other than the one just published rather than trust it.
        back = next < Int(CB_POOL_SLOTS) && next != back ? next : (back + 1) % Int(CB_POOL_SLOTS)
        heartbeat()
    }

    /// The slot published last is the middle or the shim's front: the writer
    /// does not get it back before its next publish, so reading it is safe.
    public func lastPublished() -> FrameBuffer? {
        published.map {
            FrameBuffer(pixels: base + Int(CB_POOL_HEADER_SIZE) + $0 * slotSize, width: width, height: height,
                        stride: stride)
        }
    }

    /// The latency probe (docs/pool-abi.md): the next published frame is the first to show a row
    /// change applied at `nanoseconds` (CLOCK_MONOTONIC); the newest such change is kept.
    public func stampRowChange(at nanoseconds: UInt64) {
        changeStamp = max(changeStamp, nanoseconds)
    }

    /// Tells the shim this renderer is alive (CLOCK_MONOTONIC nanoseconds).
    public func heartbeat() { heartbeatWriter.beat() }

    /// The heartbeat alone, for a task other than the frame loop: a frame that
    /// takes long (a huge image to decode) must not look like a hung renderer.
    public var heartbeatWriter: Heartbeat { Heartbeat(mapping: mapping) }

    public struct Heartbeat: Sendable {
        fileprivate let mapping: Mapping

        /// Only ever an atomic store, so any task may beat.
        public func beat() {
            let offset = MemoryLayout<cb_pool_header>.offset(of: \cb_pool_header.heartbeat_ns) ?? 0
            cb_pool_store_u64((mapping.base + offset).assumingMemoryBound(to: UInt64.self),
                              MonotonicTime.nanoseconds())
        }
    }

    /// Publishes the feed status for the shim's log; text is cut to fit, at a character boundary.
    public func setStatus(_ code: cb_pool_status, _ text: String) {
        let generation = field(\.status_generation, as: UInt32.self)
        let next = cb_pool_load_u32(generation) | 1
        cb_pool_store_u32(generation, next)  // odd: being written
        let capacity = Int(CB_POOL_STATUS_TEXT_SIZE) - 1
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            if bytes.count + encoded.count > capacity { break }  // never a cut UTF-8 sequence
            bytes += encoded
        }
        let destination = field(\.status_text, as: UInt8.self)
        destination.update(from: bytes, count: bytes.count)
        destination[bytes.count] = 0
        cb_pool_store_u32(field(\.status_code, as: UInt32.self), code.rawValue)
        cb_pool_store_u32(generation, next &+ 1)  // even: complete
    }

    private var header: UnsafeMutablePointer<cb_pool_header> { base.assumingMemoryBound(to: cb_pool_header.self) }

    private func field<T, F>(_ path: KeyPath<cb_pool_header, T>, as _: F.Type) -> UnsafeMutablePointer<F> {
        // Offsets are fixed by the ABI; the key path names the field.
        let offset = MemoryLayout<cb_pool_header>.offset(of: path) ?? 0
        return (base + offset).assumingMemoryBound(to: F.self)
    }

    private func store32(_ path: KeyPath<cb_pool_header, UInt32>, _ value: UInt32) {
        cb_pool_store_u32(field(path, as: UInt32.self), value)
    }
}
