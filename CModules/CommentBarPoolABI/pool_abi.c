// SPDX-License-Identifier: GPL-2.0-or-later
/* The pool's one header writer and one header check (commentbar_pool.h), and compile-time
 * checks that the layout in docs/pool-abi.md is the layout here. */
#include "commentbar_pool.h"

#include <stdbool.h>
#include <string.h>

_Static_assert(offsetof(struct cb_pool_header, handoff) == 48, "handoff offset");
_Static_assert(offsetof(struct cb_pool_header, heartbeat_ns) == 64, "heartbeat offset");
_Static_assert(offsetof(struct cb_pool_header, slot_sequence) == 72, "slot_sequence offset");
_Static_assert(offsetof(struct cb_pool_header, status_code) == 96, "status_code offset");
_Static_assert(offsetof(struct cb_pool_header, status_text) == 104, "status_text offset");
_Static_assert(sizeof(struct cb_pool_header) <= CB_POOL_HEADER_SIZE, "header fits its page");
_Static_assert(offsetof(struct cb_pool_header, audio_offset) == 264, "audio_offset offset");
_Static_assert(offsetof(struct cb_pool_header, audio_size) == 272, "audio_size offset");
_Static_assert(offsetof(struct cb_pool_header, slot_published_ns) == 280, "slot_published_ns offset");
_Static_assert(offsetof(struct cb_pool_header, taken_sequence) == 352, "taken_sequence offset");
_Static_assert(offsetof(struct cb_audio_ring, write_frames) == 32, "write_frames offset");
_Static_assert(offsetof(struct cb_audio_ring, read_frames) == 40, "read_frames offset");
_Static_assert(offsetof(struct cb_audio_ring, discard_before) == 48, "discard_before offset");
_Static_assert(sizeof(struct cb_audio_ring) <= CB_AUDIO_HEADER_SIZE, "ring header fits");

/* The ring's slot size is a sample of every channel: 32-bit floats. */
#define AUDIO_BYTES_PER_FRAME (CB_AUDIO_CHANNELS * 4u)
/* The first slot starts at the end of the header, the handoff names slot 1 at first. */
#define INITIAL_HANDOFF 1u

/* value rounded up to a multiple of CB_POOL_SLOT_ALIGN; false if that does not fit. */
static bool round_to_page(uint64_t value, uint64_t *rounded)
{
	uint64_t sum;
	if (__builtin_add_overflow(value, (uint64_t)CB_POOL_SLOT_ALIGN - 1u, &sum))
		return false;
	*rounded = sum / CB_POOL_SLOT_ALIGN * CB_POOL_SLOT_ALIGN;
	return true;
}

/* CB_POOL_HEADER_SIZE + CB_POOL_SLOTS * slot_size; false if it wraps around. */
static bool frames_size(uint64_t slot_size, uint64_t *pool_size)
{
	uint64_t slots;
	return !__builtin_mul_overflow(slot_size, (uint64_t)CB_POOL_SLOTS, &slots) &&
	       !__builtin_add_overflow(slots, (uint64_t)CB_POOL_HEADER_SIZE, pool_size);
}

static bool dimensions_valid(uint32_t width, uint32_t height)
{
	return width >= 1 && width <= CB_POOL_MAX_DIMENSION && height >= 1 && height <= CB_POOL_MAX_DIMENSION;
}

const char *cb_pool_layout_make(struct cb_pool_layout *layout, uint32_t width, uint32_t height,
				uint32_t audio_capacity_frames)
{
	memset(layout, 0, sizeof(*layout));
	if (!dimensions_valid(width, height))
		return "width or height outside 1..8192";
	struct cb_pool_layout made = {.width = width, .height = height, .stride = width * 4u};
	/* At most 8192 * 4 * 8192 bytes a slot: the sums below cannot wrap, but are checked anyway. */
	if (!round_to_page((uint64_t)made.stride * height, &made.slot_size) || !frames_size(made.slot_size, &made.pool_size))
		return "the frames' size does not fit in 64 bits";
	made.total_size = made.pool_size;
	if (audio_capacity_frames) {
		made.audio_capacity_frames = audio_capacity_frames;
		made.audio_size = (uint64_t)CB_AUDIO_HEADER_SIZE + (uint64_t)audio_capacity_frames * AUDIO_BYTES_PER_FRAME;
		if (!round_to_page(made.pool_size, &made.audio_offset) ||
		    __builtin_add_overflow(made.audio_offset, made.audio_size, &made.total_size))
			return "the audio ring's place does not fit in 64 bits";
	}
	*layout = made;
	return NULL;
}

const char *cb_pool_init(void *map, uint64_t map_size, const struct cb_pool_layout *layout)
{
	struct cb_pool_layout expected;
	const char *why = cb_pool_layout_make(&expected, layout->width, layout->height, layout->audio_capacity_frames);
	if (why)
		return why;
	if (memcmp(&expected, layout, sizeof(expected)) != 0)
		return "the layout is not one cb_pool_layout_make gives";
	if (map_size < layout->total_size)
		return "the mapping is smaller than the pool";
	struct cb_pool_header *h = map;
	h->magic = CB_POOL_MAGIC;
	h->version = CB_POOL_VERSION;
	h->header_size = CB_POOL_HEADER_SIZE;
	h->width = layout->width;
	h->height = layout->height;
	h->stride = layout->stride;
	h->slot_count = CB_POOL_SLOTS;
	h->slot_size = layout->slot_size;
	h->pool_size = layout->pool_size;
	h->handoff = INITIAL_HANDOFF;
	if (layout->audio_capacity_frames) {
		struct cb_audio_ring *ring = (struct cb_audio_ring *)((unsigned char *)map + layout->audio_offset);
		ring->magic = CB_AUDIO_MAGIC;
		ring->version = CB_AUDIO_VERSION;
		ring->header_size = CB_AUDIO_HEADER_SIZE;
		ring->sample_rate = CB_AUDIO_RATE;
		ring->channels = CB_AUDIO_CHANNELS;
		ring->format = CB_AUDIO_FORMAT_F32;
		ring->capacity_frames = layout->audio_capacity_frames;
		h->audio_offset = layout->audio_offset;
		h->audio_size = layout->audio_size;
	}
	return NULL;
}

/* The ring's place: page aligned after the frames, inside the mapping, room for its header. */
static const char *check_audio(const struct cb_pool_header *h, uint64_t map_size, struct cb_pool_layout *layout)
{
	if (h->audio_offset == 0)
		return h->audio_size == 0 ? NULL : "an audio size without an audio ring";
	uint64_t end;
	if (h->audio_offset % CB_POOL_SLOT_ALIGN != 0 || h->audio_offset < h->pool_size)
		return "the audio ring is not page aligned after the frames";
	if (h->audio_size < CB_AUDIO_HEADER_SIZE || (h->audio_size - CB_AUDIO_HEADER_SIZE) % AUDIO_BYTES_PER_FRAME != 0)
		return "the audio ring's size is not a header and whole frames";
	if (__builtin_add_overflow(h->audio_offset, h->audio_size, &end) || end > map_size)
		return "the audio ring does not fit in the mapping";
	const uint64_t frames = (h->audio_size - CB_AUDIO_HEADER_SIZE) / AUDIO_BYTES_PER_FRAME;
	if (frames > UINT32_MAX)
		return "the audio ring holds more frames than its header can count";
	layout->audio_offset = h->audio_offset;
	layout->audio_size = h->audio_size;
	layout->audio_capacity_frames = (uint32_t)frames;
	layout->total_size = end;
	return NULL;
}

const char *cb_pool_check(const struct cb_pool_header *h, uint64_t map_size, struct cb_pool_layout *layout)
{
	memset(layout, 0, sizeof(*layout));
	uint64_t pixels, pool_size;
	if (h->magic != CB_POOL_MAGIC)
		return "bad magic";
	if (h->version != CB_POOL_VERSION)
		return "unknown version";
	if (h->header_size != CB_POOL_HEADER_SIZE || h->slot_count != CB_POOL_SLOTS)
		return "unexpected header size or slot count";
	if (!dimensions_valid(h->width, h->height))
		return "frame size out of range";
	if (h->stride < h->width * 4u || h->stride % 4u != 0)
		return "bad stride";
	/* stride < 2^32 and height <= 8192: the product fits, checked all the same. */
	if (__builtin_mul_overflow((uint64_t)h->stride, (uint64_t)h->height, &pixels) || h->slot_size < pixels ||
	    h->slot_size % CB_POOL_SLOT_ALIGN != 0)
		return "bad slot size";
	/* The sum a hostile slot_size could wrap around (4096 + 3 * slot_size): computed checked. */
	if (!frames_size(h->slot_size, &pool_size) || h->pool_size != pool_size || pool_size > map_size)
		return "pool size does not match the mapping";
	struct cb_pool_layout found = {
		.width = h->width,
		.height = h->height,
		.stride = h->stride,
		.slot_size = h->slot_size,
		.pool_size = pool_size,
		.total_size = pool_size,
	};
	const char *why = check_audio(h, map_size, &found);
	if (why)
		return why;
	*layout = found;
	return NULL;
}
