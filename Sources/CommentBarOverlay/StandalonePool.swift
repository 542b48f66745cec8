// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarPoolABI
import CSysCalls
import Glibc

/// A frame pool of our own, for `commentbar overlay` (no OBS shim to create one): a memfd laid
/// out and filled by the pool ABI's one header writer (`cb_pool_init`, as the shim fills its
/// own), that the renderer then attaches to as it does to the shim's. No audio ring: the
/// standalone overlay has no OBS to play speech to.
public enum StandalonePool {
    public struct CreateError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The memfd's descriptor (inheritable, so the helper gets it), its header written.
    public static func create(width: Int, height: Int) throws(CreateError) -> Int32 {
        guard let w = UInt32(exactly: width), let h = UInt32(exactly: height) else {
            throw CreateError(description: "pool size \(width)x\(height) is out of range")
        }
        var layout = cb_pool_layout()
        if let why = cb_pool_layout_make(&layout, w, h, 0) {
            throw CreateError(description: "pool size \(width)x\(height): \(String(cString: why))")
        }
        let size = Int(layout.total_size)
        let fd = cb_sys_memfd("commentbar-overlay-pool")
        guard fd >= 0 else { throw CreateError(description: "memfd_create: \(String(cString: strerror(errno)))") }
        guard ftruncate(fd, off_t(size)) == 0,
              let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), base != MAP_FAILED else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw CreateError(description: "pool of \(size) bytes: \(reason)")
        }
        let why = cb_pool_init(base, layout.total_size, &layout)
        munmap(base, size)
        if let why {
            close(fd)
            throw CreateError(description: "pool of \(size) bytes: \(String(cString: why))")
        }
        return fd
    }
}
