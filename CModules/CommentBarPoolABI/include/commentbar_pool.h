// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * commentbar_pool.h: the shared-memory frame pool between the OBS shim
 * (reader, creator of the pool) and the `commentbar serve` renderer (writer).
 *
 * One memfd holds a header page followed by CB_POOL_SLOTS frame slots of
 * ARGB32 premultiplied, native-endian pixels (BGRA bytes on x86-64, the
 * layout of CAIRO_FORMAT_ARGB32 and of OBS's GS_BGRA).
 *
 * Hand-off is a lock-free triple buffer in one atomic word, so no lock can be
 * left held by a process that dies:
 *   - the writer owns one slot (its back buffer), the reader owns one (front),
 *     the third is "in the middle", named by `handoff`;
 *   - the writer draws into its back slot, stores the slot's sequence, then
 *     exchanges `handoff` with (back | CB_POOL_FRESH) and owns what it got;
 *   - the reader, when CB_POOL_FRESH is set, exchanges `handoff` with its
 *     front index (fresh bit clear) and owns what it got: the newest
 *     complete frame.
 * At start the writer owns slot 0, the middle is slot 1 (not fresh), and the
 * reader owns slot 2. The slot owners are process-local; only the middle is
 * shared. A pool is used by one renderer process for its whole life: a
 * restarted renderer gets a new pool.
 *
 * The reader must treat the whole mapping as hostile: it keeps its own copy of
 * the geometry it created, and validates every index and size it reads.
 *
 * Liveness: the writer stores heartbeat_ns at least every second, rendering or
 * not; the shim restarts a renderer whose heartbeat has not changed for 3 s.
 * `sequence` is informational (for tools); readers use slot_sequence.
 * Bytes from the end of struct cb_pool_header up to CB_POOL_HEADER_SIZE are
 * reserved and zero.
 * See docs/pool-abi.md.
 */
#ifndef COMMENTBAR_POOL_H
#define COMMENTBAR_POOL_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CB_POOL_MAGIC 0x4C4F4F5052414242ULL /* "BBARPOOL" read as little-endian bytes */
#define CB_POOL_VERSION 1u
#define CB_POOL_SLOTS 3u
#define CB_POOL_HEADER_SIZE 4096u /* slot 0 starts here: page aligned */
#define CB_POOL_SLOT_ALIGN 4096u
#define CB_POOL_MAX_DIMENSION 8192u
#define CB_POOL_STATUS_TEXT_SIZE 160u

#define CB_POOL_INDEX_MASK 0x3u
#define CB_POOL_FRESH 0x4u

/* status_code values, written by the renderer */
enum cb_pool_status {
	CB_STATUS_STARTING = 0,
	CB_STATUS_CONNECTING = 1,
	CB_STATUS_LIVE = 2,
	CB_STATUS_RECONNECTING = 3,
	CB_STATUS_ERROR = 4,
	CB_STATUS_PAUSED = 5,
	CB_STATUS_WAITING = 6, /* the stream has not started; the feed checks again */
	CB_STATUS_ENDED = 7,   /* the stream is over */
};

struct cb_pool_header {
	/* Written once by the creator (the shim) before the renderer starts. */
	uint64_t magic;          /*  0: CB_POOL_MAGIC */
	uint32_t version;        /*  8: CB_POOL_VERSION */
	uint32_t header_size;    /* 12: CB_POOL_HEADER_SIZE: offset of slot 0 */
	uint32_t width;          /* 16: pixels, 1..CB_POOL_MAX_DIMENSION */
	uint32_t height;         /* 20: pixels, 1..CB_POOL_MAX_DIMENSION */
	uint32_t stride;         /* 24: bytes per row, >= width * 4, multiple of 4 */
	uint32_t slot_count;     /* 28: CB_POOL_SLOTS */
	uint64_t slot_size;      /* 32: bytes per slot, >= stride * height, multiple of CB_POOL_SLOT_ALIGN */
	uint64_t pool_size;      /* 40: header_size + slot_count * slot_size: the memfd size */

	/* Shared hand-off and liveness, written with atomics. */
	uint32_t handoff;        /* 48: middle slot index | CB_POOL_FRESH */
	uint32_t producer_pid;   /* 52: the renderer's pid, set when it attaches */
	uint64_t sequence;       /* 56: sequence number of the last published frame (1, 2, ...) */
	uint64_t heartbeat_ns;   /* 64: CLOCK_MONOTONIC of the renderer's last sign of life */
	uint64_t slot_sequence[CB_POOL_SLOTS]; /* 72: sequence of the frame each slot holds */

	/* Status, renderer to shim. status_generation is odd while the text is
	 * being written (a seqlock: the reader copies, then checks it again). */
	uint32_t status_code;        /* 96: enum cb_pool_status */
	uint32_t status_generation;  /* 100 */
	char status_text[CB_POOL_STATUS_TEXT_SIZE]; /* 104: UTF-8, NUL-terminated */

	/* The audio ring (an addition in version 1: a pool whose creator knows no ring has
	 * zeros here, and a renderer that knows none never looks). Written once by the
	 * creator. The ring lives in the same memfd after the frame slots, at audio_offset
	 * (page aligned, >= pool_size); the memfd is then audio_offset + audio_size long. */
	uint64_t audio_offset;   /* 264: offset of struct cb_audio_ring; 0: no ring */
	uint64_t audio_size;     /* 272: CB_AUDIO_HEADER_SIZE + capacity * channels * bytes per sample */

	/* The latency probe (an addition in version 1, for benchmarks and tools: nothing
	 * acts on these, a side that knows none leaves zeros). CLOCK_MONOTONIC ns. */
	uint64_t slot_published_ns[CB_POOL_SLOTS]; /* 280: renderer: when each slot's frame was published */
	uint64_t slot_changed_ns[CB_POOL_SLOTS];   /* 304: renderer: when the newest row change that
						    * frame is the first to show was applied; 0: none */
	uint64_t taken_published_ns; /* 328: shim: slot_published_ns of the frame it took last (copied as read) */
	uint64_t taken_changed_ns;   /* 336: shim: that frame's slot_changed_ns (copied as read) */
	uint64_t taken_ns;           /* 344: shim: when it took that frame for OBS's next video frame */
	uint64_t taken_sequence;     /* 352: shim: that frame's sequence, stored after the three above */
};

/*
 * The audio ring: single producer (the renderer's speech), single consumer (the
 * shim's audio thread). Counters count frames since the ring was made and never
 * wrap in practice (2^64 frames); frame n lives at sample index n % capacity.
 *   - the writer writes frames [write_frames, write_frames + k) with k <=
 *     capacity - (write_frames - read_frames), then stores write_frames + k (release);
 *   - the reader reads frames [read_frames, write_frames) (acquire on
 *     write_frames), then stores the new read_frames (release);
 *   - discard_before (writer): frames below it are not played (a skip or a
 *     pause): the reader moves read_frames up to it when read_frames < it <= write_frames.
 * The reader validates everything: magic, version, format, rate, channels and
 * capacity must equal what it created; read_frames <= write_frames <=
 * read_frames + capacity; otherwise the ring is corrupt: no audio from it.
 */
#define CB_AUDIO_MAGIC 0x4F49445552414242ULL /* "BBARAUDO" read as little-endian bytes */
#define CB_AUDIO_VERSION 1u
#define CB_AUDIO_HEADER_SIZE 128u
#define CB_AUDIO_RATE 48000u
#define CB_AUDIO_CHANNELS 1u
#define CB_AUDIO_FORMAT_F32 1u /* float samples, -1..1, native endian */
#define CB_AUDIO_FORMAT_S16 2u /* reserved: int16 samples */
#define CB_AUDIO_CAPACITY_FRAMES (CB_AUDIO_RATE * 4u) /* 4 s */

struct cb_audio_ring {
	uint64_t magic;           /*  0: CB_AUDIO_MAGIC */
	uint32_t version;         /*  8: CB_AUDIO_VERSION */
	uint32_t header_size;     /* 12: CB_AUDIO_HEADER_SIZE: offset of the samples */
	uint32_t sample_rate;     /* 16: CB_AUDIO_RATE */
	uint32_t channels;        /* 20: 1 (mono) or 2 (interleaved) */
	uint32_t format;          /* 24: CB_AUDIO_FORMAT_F32 */
	uint32_t capacity_frames; /* 28: frames the ring holds */
	uint64_t write_frames;    /* 32: writer: frames written so far */
	uint64_t read_frames;     /* 40: reader: frames consumed so far */
	uint64_t discard_before;  /* 48: writer: frames below this are dropped unplayed */
	uint64_t utterance_ns;    /* 56: writer: CLOCK_MONOTONIC when the newest item arrived (for benchmarks) */
};


/*
 * Making and checking a pool (pool_abi.c): the one writer of a header (the shim, the
 * standalone pool of `commentbar overlay`, the tests) and the one check of a header read
 * from a mapping (the overlay helpers, the test renderers). Every size is computed with
 * overflow checks: a hostile header cannot make a sum wrap around.
 */

/* Where everything of a pool lies, in bytes from the start of the memfd. */
struct cb_pool_layout {
	uint32_t width;
	uint32_t height;
	uint32_t stride;                /* bytes per row: width * 4 when made here */
	uint64_t slot_size;             /* bytes per slot, a multiple of CB_POOL_SLOT_ALIGN */
	uint64_t pool_size;             /* CB_POOL_HEADER_SIZE + CB_POOL_SLOTS * slot_size: the frames' part */
	uint64_t audio_offset;          /* the ring's start, page aligned after the frames; 0: no ring */
	uint64_t audio_size;            /* CB_AUDIO_HEADER_SIZE + capacity * CB_AUDIO_CHANNELS * 4 */
	uint32_t audio_capacity_frames; /* 0: no ring */
	uint64_t total_size;            /* the memfd's size: pool_size, or audio_offset + audio_size */
};

/* The layout of a pool of width x height pixels (1..CB_POOL_MAX_DIMENSION each), with a
 * mono float ring of audio_capacity_frames frames after the slots unless that is 0.
 * Returns NULL, or what is wrong (and *layout is zeroed). */
const char *cb_pool_layout_make(struct cb_pool_layout *layout, uint32_t width, uint32_t height,
				uint32_t audio_capacity_frames);

/* Writes the initial header of a pool laid out as layout (and its ring's header) into map,
 * a mapping of map_size bytes that starts zeroed (a new memfd): the fields the creator
 * writes once, handoff = 1 (the writer owns slot 0, slot 1 is in the middle). Plain stores:
 * the creator writes before the other side runs. Returns NULL, or what is wrong (a mapping
 * too small for the layout, a layout cb_pool_layout_make would not give). */
const char *cb_pool_init(void *map, uint64_t map_size, const struct cb_pool_layout *layout);

/* Checks a header against the ABI (docs/pool-abi.md, "Rules for the writer") and the size of
 * the mapping it came from: magic, version, header size, slot count, dimensions, stride, slot
 * size, pool size and the audio ring's place all consistent and inside map_size. Pass a copy
 * of the header (the mapping may change under a reader). Returns NULL and the header's
 * geometry in *layout, or what is wrong. */
const char *cb_pool_check(const struct cb_pool_header *header, uint64_t map_size, struct cb_pool_layout *layout);

/* The bytes of the ring shim and renderer use (CB_AUDIO_CAPACITY_FRAMES mono frames). */
static inline uint64_t cb_audio_ring_size(void)
{
	return (uint64_t)CB_AUDIO_HEADER_SIZE + (uint64_t)CB_AUDIO_CAPACITY_FRAMES * CB_AUDIO_CHANNELS * 4u;
}

/* Atomic access for both languages (Swift imports these inline functions). */
static inline uint32_t cb_pool_exchange_handoff(struct cb_pool_header *h, uint32_t value)
{
	return __atomic_exchange_n(&h->handoff, value, __ATOMIC_ACQ_REL);
}
static inline uint32_t cb_pool_load_handoff(const struct cb_pool_header *h)
{
	return __atomic_load_n(&h->handoff, __ATOMIC_ACQUIRE);
}
static inline void cb_pool_store_u64(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}
static inline uint64_t cb_pool_load_u64(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
static inline void cb_pool_store_u32(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}
static inline uint32_t cb_pool_load_u32(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

#ifdef __cplusplus
}
#endif

#endif
