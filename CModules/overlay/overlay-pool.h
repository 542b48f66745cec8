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

enum overlay_copy {
	OVERLAY_COPY_NOTHING_NEW, /* the newest frame is the one we have */
	OVERLAY_COPY_DONE,        /* a newer frame is in `dst` and `*seen` is its sequence */
	OVERLAY_COPY_TORN,        /* the renderer moved on while we copied: try again */
};

/* Copies the newest published frame (width x height ARGB32 rows into `dst`, `dst_stride` bytes
 * apart) when its sequence is above `*seen`. */
enum overlay_copy overlay_pool_copy_newest(const struct overlay_pool *pool, uint64_t *seen, unsigned char *dst,
					   size_t dst_stride);

void overlay_pool_close(struct overlay_pool *pool);

#endif
