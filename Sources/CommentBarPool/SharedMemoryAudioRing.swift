// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarPoolABI
import Glibc

/// The writer's side of the pool's audio ring (commentbar_pool.h: struct cb_audio_ring,
/// docs/pool-abi.md): mono float frames at 48 kHz for the shim's audio thread. The ring is
/// where the pool's checked layout (`cb_pool_check`) puts it, and its own header is checked
/// too; a pool from a shim that made no ring has none, and speech then has nowhere to go (said
/// in the log).
public final class SharedMemoryAudioRing: @unchecked Sendable {
    // @unchecked: one writer (the speech reader's task) by design; the shared counters are atomics.
    private let mapping: SharedMemoryFramePool.Mapping
    private let ring: UnsafeMutablePointer<cb_audio_ring>
    private let samples: UnsafeMutablePointer<Float>
    private let capacity: Int
    public let sampleRate = Int(CB_AUDIO_RATE)

    /// `layout`: what `cb_pool_check` found in the mapping (the ring's place inside it).
    init?(mapping: SharedMemoryFramePool.Mapping, layout: cb_pool_layout) {
        guard layout.audio_offset != 0, layout.audio_size == cb_audio_ring_size(),
              let offset = Int(exactly: layout.audio_offset) else { return nil }
        let ring = (mapping.base + offset).assumingMemoryBound(to: cb_audio_ring.self)
        let fields = ring.pointee
        guard fields.magic == CB_AUDIO_MAGIC, fields.version == CB_AUDIO_VERSION,
              fields.header_size == CB_AUDIO_HEADER_SIZE, fields.sample_rate == CB_AUDIO_RATE,
              fields.channels == 1, fields.format == CB_AUDIO_FORMAT_F32,
              fields.capacity_frames == CB_AUDIO_CAPACITY_FRAMES else { return nil }
        self.mapping = mapping
        self.ring = ring
        samples = (mapping.base + offset + Int(CB_AUDIO_HEADER_SIZE)).assumingMemoryBound(to: Float.self)
        capacity = Int(CB_AUDIO_CAPACITY_FRAMES)
    }

    private func counter(_ path: KeyPath<cb_audio_ring, UInt64>) -> UnsafeMutablePointer<UInt64> {
        let offset = MemoryLayout<cb_audio_ring>.offset(of: path) ?? 0
        return (UnsafeMutableRawPointer(ring) + offset).assumingMemoryBound(to: UInt64.self)
    }

    /// Frames written and not yet taken by the shim (0 if the shim's counter makes no sense).
    public func queuedFrames() -> Int {
        let written = cb_pool_load_u64(counter(\.write_frames))
        let read = cb_pool_load_u64(counter(\.read_frames))
        guard read <= written, written - read <= UInt64(capacity) else { return capacity }
        return Int(written - read)
    }

    public func write(_ frames: ArraySlice<Float>) -> Int {
        let written = cb_pool_load_u64(counter(\.write_frames))
        let room = capacity - queuedFrames()
        let count = min(room, frames.count)
        guard count > 0 else { return 0 }
        var index = frames.startIndex
        for frame in 0..<count {
            samples[Int((written + UInt64(frame)) % UInt64(capacity))] = frames[index]
            index += 1
        }
        cb_pool_store_u64(counter(\.write_frames), written + UInt64(count))
        return count
    }

    /// Everything written is dropped unplayed.
    public func discardQueued() {
        cb_pool_store_u64(counter(\.discard_before), cb_pool_load_u64(counter(\.write_frames)))
    }

    /// CLOCK_MONOTONIC of the newest item's arrival, for the shim's latency trace.
    public func markArrival() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        cb_pool_store_u64(counter(\.utterance_ns), UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec))
    }
}
