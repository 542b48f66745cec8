// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarPoolABI
import CommentBarOverlaySys
import Glibc

/// A frame pool of our own, for `commentbar overlay` (no OBS shim to create one): a memfd laid
/// out as commentbar_pool.h says, that the renderer then attaches to as it does to the shim's.
public enum StandalonePool {
    public struct CreateError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The memfd's descriptor (inheritable, so the helper gets it), its header written.
    public static func create(width: Int, height: Int) throws(CreateError) -> Int32 {
        let maxDimension = Int(CB_POOL_MAX_DIMENSION)
        guard (1...maxDimension).contains(width), (1...maxDimension).contains(height) else {
            throw CreateError(description: "pool size \(width)x\(height) is out of range")
        }
        let (w, h) = (UInt32(width), UInt32(height))
        let size = Int(cb_pool_total_size(w, h))
        let fd = cb_overlay_memfd("commentbar-overlay-pool")
        guard fd >= 0 else { throw CreateError(description: "memfd_create: \(String(cString: strerror(errno)))") }
        guard ftruncate(fd, off_t(size)) == 0,
              let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), base != MAP_FAILED else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw CreateError(description: "pool of \(size) bytes: \(reason)")
        }
        let header = base.assumingMemoryBound(to: cb_pool_header.self)
        header.pointee.magic = CB_POOL_MAGIC
        header.pointee.version = CB_POOL_VERSION
        header.pointee.header_size = CB_POOL_HEADER_SIZE
        header.pointee.width = w
        header.pointee.height = h
        header.pointee.stride = w * 4
        header.pointee.slot_count = CB_POOL_SLOTS
        header.pointee.slot_size = cb_pool_slot_size(w, h)
        header.pointee.pool_size = UInt64(size)
        // The writer starts owning slot 0 and slot 1 is in the middle (commentbar_pool.h).
        cb_pool_store_u32(&header.pointee.handoff, 1)
        munmap(base, size)
        return fd
    }
}
