// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * frame-pool: the shim's side of the shared-memory frame pool
 * (CModules/CommentBarPoolABI/include/commentbar_pool.h, docs/pool-abi.md).
 *
 * The shim creates each pool, so it keeps its own copy of the geometry and
 * never trusts what the renderer may have written into the header.
 * No libobs dependency: the stub host and the fake renderer can use it as is.
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commentbar_pool.h"

struct frame_pool {
	atomic_int refs;
	int fd; /* the sealed memfd (close-on-exec) */
	uint8_t *map;
	size_t map_size;

	/* Our own copy of the geometry we created: the only one we use. */
	uint32_t width;
	uint32_t height;
	uint32_t stride;
	uint64_t slot_size;
	uint64_t ring_offset; /* the audio ring (speech-ring.h), cb_audio_ring_size() bytes there; 0: none */

	/* Reader state, touched only by the thread that takes frames (video_tick). */
	uint32_t front_index;
	uint64_t last_taken_sequence;
	bool taken_any;
	/* Fresh hand-offs that named no valid slot: counted by the thread that takes
	 * frames, read and logged (rate-limited) by the renderer supervisor. */
	atomic_uint_fast64_t handoff_errors;
};

/* Creates, sizes, fills and seals a pool for width x height (1..CB_POOL_MAX_DIMENSION).
 * Returns NULL and writes a reason into err on failure. One reference. */
struct frame_pool *frame_pool_create(uint32_t width, uint32_t height, char *err, size_t err_size);
struct frame_pool *frame_pool_ref(struct frame_pool *pool);
/* Unmaps and closes with the last reference. NULL is fine. */
void frame_pool_unref(struct frame_pool *pool);

/* Never blocks, never loops. If the renderer published a fresh frame that is
 * not the one taken last, returns true with the slot's pixels (our stride,
 * our height, inside our mapping) and its sequence. */
bool frame_pool_take_fresh(struct frame_pool *pool, const uint8_t **pixels, uint64_t *sequence);

uint64_t frame_pool_heartbeat(const struct frame_pool *pool);
/* As the renderer wrote it: any number, for the log only. */
uint32_t frame_pool_producer_pid(const struct frame_pool *pool);

/* One seqlock attempt: returns true and a NUL-terminated, printable copy of the
 * status if the renderer was not writing it at that moment; false otherwise
 * (keep the previous text). */
bool frame_pool_read_status(const struct frame_pool *pool, uint32_t *code, char text[CB_POOL_STATUS_TEXT_SIZE]);

const char *frame_pool_status_name(uint32_t code);
