// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay-pool.c: reading the newest frame of the renderer's pool without owning a slot.
 *
 * The OBS shim is the pool's one reader in the triple buffer, so the overlay takes no slot: it
 * reads the slot with the highest slot_sequence (the newest published frame) in place, no copy.
 * The writer only gets that slot back, and draws into it, after it has published a newer frame
 * and stored the header's `sequence`; so what was read is whole when, after reading, both the
 * slot's sequence and the header's sequence still name that frame. Otherwise a newer frame
 * exists (and its notice is on the way): the reader shows that one instead. */
#define _GNU_SOURCE
#include "overlay-pool.h"

#include "commentbar_pool.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

bool overlay_pool_open(struct overlay_pool *pool, int fd, char *why, size_t why_size)
{
	memset(pool, 0, sizeof(*pool));
	struct stat info;
	if (fstat(fd, &info) != 0) {
		snprintf(why, why_size, "pool fd %d: %s", fd, strerror(errno));
		return false;
	}
	if (info.st_size < (off_t)CB_POOL_HEADER_SIZE) {
		snprintf(why, why_size, "pool fd %d: %lld bytes is smaller than a pool header", fd,
			 (long long)info.st_size);
		return false;
	}
	size_t size = (size_t)info.st_size;
	void *base = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		snprintf(why, why_size, "pool fd %d: mmap failed: %s", fd, strerror(errno));
		return false;
	}
	/* Checked once, on a copy (the mapping may change under us), the way every reader checks
	 * one: sizes computed without wrapping around (commentbar_pool.h, cb_pool_check). */
	struct cb_pool_header copy;
	memcpy(&copy, base, sizeof(copy));
	struct cb_pool_layout layout;
	const char *problem = cb_pool_check(&copy, size, &layout);
	if (problem) {
		munmap(base, size);
		snprintf(why, why_size, "pool fd %d is not a comment-bar pool: %s", fd, problem);
		return false;
	}
	pool->base = base;
	pool->size = size;
	pool->width = layout.width;
	pool->height = layout.height;
	pool->stride = layout.stride;
	pool->slot_size = layout.slot_size;
	return true;
}

bool overlay_pool_newest(const struct overlay_pool *pool, uint64_t seen, unsigned *slot, uint64_t *sequence)
{
	const struct cb_pool_header *h = (const struct cb_pool_header *)pool->base;
	uint64_t newest = 0;
	unsigned found = CB_POOL_SLOTS;
	for (unsigned i = 0; i < CB_POOL_SLOTS; i++) {
		uint64_t value = cb_pool_load_u64(&h->slot_sequence[i]);
		if (value > newest) {
			newest = value;
			found = i;
		}
	}
	if (found == CB_POOL_SLOTS || newest <= seen)
		return false;
	*slot = found;
	*sequence = newest;
	return true;
}

const unsigned char *overlay_pool_pixels(const struct overlay_pool *pool, unsigned slot)
{
	/* Slot offsets come from our checked copy of the geometry, never from the mapping again. */
	return pool->base + CB_POOL_HEADER_SIZE + (size_t)(slot % CB_POOL_SLOTS) * pool->slot_size;
}

bool overlay_pool_whole(const struct overlay_pool *pool, unsigned slot, uint64_t sequence)
{
	const struct cb_pool_header *h = (const struct cb_pool_header *)pool->base;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return cb_pool_load_u64(&h->slot_sequence[slot % CB_POOL_SLOTS]) == sequence &&
	       cb_pool_load_u64(&h->sequence) == sequence;
}

void overlay_pool_close(struct overlay_pool *pool)
{
	if (pool->base)
		munmap((void *)pool->base, pool->size);
	memset(pool, 0, sizeof(*pool));
}
