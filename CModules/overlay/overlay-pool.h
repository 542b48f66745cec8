// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay-pool.h: the overlay helpers' read-only view of the renderer's frame pool. */
#ifndef COMMENTBAR_OVERLAY_POOL_H
#define COMMENTBAR_OVERLAY_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct overlay_pool {
	const unsigned char *base;
	size_t size;
	/* Our own copy of the geometry, checked once: the mapping is hostile memory. */
	uint32_t width, height, stride;
	uint64_t slot_size;
};

/* Maps the pool passed as `fd` read-only and checks its header; false with a reason in `why`. */
bool overlay_pool_open(struct overlay_pool *pool, int fd, char *why, size_t why_size);

/* The slot holding the newest published frame and its sequence; false when nothing newer than
 * `seen` is published. */
bool overlay_pool_newest(const struct overlay_pool *pool, uint64_t seen, unsigned *slot, uint64_t *sequence);

/* The pixels of a slot (width x height ARGB32, `stride` bytes a row), read-only. */
const unsigned char *overlay_pool_pixels(const struct overlay_pool *pool, unsigned slot);

/* Whether frame `sequence` is still whole in `slot`: call after reading its pixels. */
bool overlay_pool_whole(const struct overlay_pool *pool, unsigned slot, uint64_t sequence);

void overlay_pool_close(struct overlay_pool *pool);

#endif
