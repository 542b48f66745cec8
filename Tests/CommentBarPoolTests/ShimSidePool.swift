// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarPoolABI
import Glibc

/// The OBS shim's side of a pool, as far as these tests need it: the memfd made as
/// CModules/plugin/frame-pool.c makes it (the header written by the pool ABI's `cb_pool_init`:
/// the writer owning slot 0, slot 1 in the middle, the reader owning slot 2; no audio ring),
/// and frames taken as the shim's reader takes them.
final class ShimSidePool {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let fd: Int32
    let size: Int
    let base: UnsafeMutableRawPointer
    let width: Int
    let height: Int
    let slotSize: Int
    /// The slot the reader owns.
    private(set) var front = 2

    /// `edit` may spoil the header before the renderer sees it.
    init(width: UInt32, height: UInt32, edit: (inout cb_pool_header) -> Void = { _ in }) throws(Failure) {
        // glibc has memfd_create, but Swift's Glibc module does not declare it.
        typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(nil, "memfd_create") else { throw Failure(description: "no memfd_create") }
        let memfdCreate = unsafeBitCast(symbol, to: MemfdCreate.self)
        let fd = memfdCreate("commentbar-pool-test", 1 /* MFD_CLOEXEC */)
        guard fd >= 0 else { throw Failure(description: "memfd_create: \(errno)") }
        var layout = cb_pool_layout()
        if let why = cb_pool_layout_make(&layout, width, height, 0) {
            close(fd)
            throw Failure(description: String(cString: why))
        }
        let total = Int(layout.total_size)
        guard ftruncate(fd, off_t(total)) == 0, let mapping = mmap(nil, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
              mapping != MAP_FAILED
        else {
            close(fd)
            throw Failure(description: "cannot size or map the pool")
        }
        // The header the shim writes (its one writer, cb_pool_init), then spoiled as the test asks.
        if let why = cb_pool_init(mapping, layout.total_size, &layout) {
            munmap(mapping, total)
            close(fd)
            throw Failure(description: String(cString: why))
        }
        edit(&mapping.assumingMemoryBound(to: cb_pool_header.self).pointee)
        self.fd = fd
        size = total
        base = mapping
        self.width = Int(width)
        self.height = Int(height)
        slotSize = Int(layout.slot_size)
    }

    deinit {
        munmap(base, size)
        close(fd)
    }

    var header: UnsafeMutablePointer<cb_pool_header> { base.assumingMemoryBound(to: cb_pool_header.self) }

    /// The newest complete frame if one was published since the last take: the slot the reader
    /// now owns and the sequence it holds. Every value read is checked, as the shim checks it.
    func take() throws(Failure) -> (slot: Int, sequence: UInt64)? {
        guard cb_pool_load_handoff(header) & CB_POOL_FRESH != 0 else { return nil }
        let got = cb_pool_exchange_handoff(header, UInt32(front))
        let index = Int(got & CB_POOL_INDEX_MASK)
        guard got & ~(CB_POOL_INDEX_MASK | CB_POOL_FRESH) == 0, index < Int(CB_POOL_SLOTS) else {
            throw Failure(description: "handoff \(got) names no slot")
        }
        front = index
        return (index, cb_pool_load_u64(u64(\.slot_sequence) + index))
    }

    /// The pixel at (x, y) of `slot`.
    func pixel(slot: Int, x: Int, y: Int) -> UInt32 {
        base.load(fromByteOffset: Int(CB_POOL_HEADER_SIZE) + slot * slotSize + y * width * 4 + x * 4, as: UInt32.self)
    }

    var sequence: UInt64 { cb_pool_load_u64(u64(\.sequence)) }
    var heartbeat: UInt64 { cb_pool_load_u64(u64(\.heartbeat_ns)) }
    var producerPID: UInt32 { cb_pool_load_u32(u32(\.producer_pid)) }
    /// The latency probe's stamps of `slot` (docs/pool-abi.md).
    func stamps(slot: Int) -> (published: UInt64, changed: UInt64) {
        (cb_pool_load_u64(u64(\.slot_published_ns) + slot), cb_pool_load_u64(u64(\.slot_changed_ns) + slot))
    }

    /// The renderer's status as the shim reads it: a copy between two equal, even generations.
    func status() -> (code: UInt32, text: [UInt8])? {
        let before = cb_pool_load_u32(u32(\.status_generation))
        guard before & 1 == 0 else { return nil }
        let code = cb_pool_load_u32(u32(\.status_code))
        let offset = MemoryLayout<cb_pool_header>.offset(of: \cb_pool_header.status_text) ?? 0
        let bytes = UnsafeRawBufferPointer(start: base + offset, count: Int(CB_POOL_STATUS_TEXT_SIZE))
        let text = Array(bytes.prefix { $0 != 0 })
        guard cb_pool_load_u32(u32(\.status_generation)) == before else { return nil }
        return (code, text)
    }

    var statusGeneration: UInt32 { cb_pool_load_u32(u32(\.status_generation)) }

    private func u64<T>(_ field: KeyPath<cb_pool_header, T>) -> UnsafeMutablePointer<UInt64> {
        (base + (MemoryLayout<cb_pool_header>.offset(of: field) ?? 0)).assumingMemoryBound(to: UInt64.self)
    }

    private func u32<T>(_ field: KeyPath<cb_pool_header, T>) -> UnsafeMutablePointer<UInt32> {
        (base + (MemoryLayout<cb_pool_header>.offset(of: field) ?? 0)).assumingMemoryBound(to: UInt32.self)
    }
}
