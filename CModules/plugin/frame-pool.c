// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "frame-pool.h"
#include "safe-text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* The slot the ABI gives the reader at start (the writer owns 0, the middle is 1). */
#define INITIAL_READER_SLOT 2u

static struct cb_pool_header *header_of(const struct frame_pool *pool)
{
	return (struct cb_pool_header *)pool->map;
}

struct frame_pool *frame_pool_create(uint32_t width, uint32_t height, char *err, size_t err_size)
{
	/* The frames, then the audio ring (docs/pool-abi.md): pages of it that speech never
	 * writes are never touched, so a bar without speech costs no memory for it. */
	struct cb_pool_layout layout;
	const char *why = cb_pool_layout_make(&layout, width, height, CB_AUDIO_CAPACITY_FRAMES);
	if (why) {
		snprintf(err, err_size, "pool of %ux%u: %s", width, height, why);
		return NULL;
	}
	const uint64_t total = layout.total_size;

	int fd = memfd_create("commentbar-pool", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) {
		snprintf(err, err_size, "memfd_create: %s", strerror(errno));
		return NULL;
	}
	if (ftruncate(fd, (off_t)total) != 0) {
		snprintf(err, err_size, "ftruncate to %llu bytes: %s", (unsigned long long)total, strerror(errno));
		close(fd);
		return NULL;
	}
	void *map = mmap(NULL, (size_t)total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		snprintf(err, err_size, "mmap of %llu bytes: %s", (unsigned long long)total, strerror(errno));
		close(fd);
		return NULL;
	}
	/* The memfd starts zeroed: sequences, heartbeat, status are already 0. Plain stores
	 * suffice: posix_spawn orders them before the renderer runs. */
	why = cb_pool_init(map, total, &layout);
	/* Sealed so the renderer can neither shrink the file under our mapping
	 * (SIGBUS on read) nor grow it, nor remove the seals. */
	if (!why && fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0)
		why = strerror(errno);
	struct frame_pool *pool = why ? NULL : calloc(1, sizeof(*pool));
	if (!pool) {
		snprintf(err, err_size, "making the pool: %s", why ? why : "out of memory");
		munmap(map, (size_t)total);
		close(fd);
		return NULL;
	}
	atomic_init(&pool->refs, 1);
	atomic_init(&pool->handoff_errors, 0);
	pool->fd = fd;
	pool->map = map;
	pool->map_size = (size_t)total;
	pool->width = width;
	pool->height = height;
	pool->stride = layout.stride;
	pool->slot_size = layout.slot_size;
	pool->ring_offset = layout.audio_offset;
	pool->front_index = INITIAL_READER_SLOT;
	return pool;
}

struct frame_pool *frame_pool_ref(struct frame_pool *pool)
{
	if (pool)
		atomic_fetch_add_explicit(&pool->refs, 1, memory_order_relaxed);
	return pool;
}

void frame_pool_unref(struct frame_pool *pool)
{
	if (!pool || atomic_fetch_sub_explicit(&pool->refs, 1, memory_order_acq_rel) != 1)
		return;
	munmap(pool->map, pool->map_size);
	close(pool->fd);
	free(pool);
}

/* The latency probe (docs/pool-abi.md): which frame OBS got, and when. The renderer's stamps
 * are copied as they are, never used here. */
static void note_taken(struct cb_pool_header *h, uint32_t index, uint64_t sequence)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	cb_pool_store_u64(&h->taken_published_ns, cb_pool_load_u64(&h->slot_published_ns[index]));
	cb_pool_store_u64(&h->taken_changed_ns, cb_pool_load_u64(&h->slot_changed_ns[index]));
	cb_pool_store_u64(&h->taken_ns, (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec);
	cb_pool_store_u64(&h->taken_sequence, sequence);
}

bool frame_pool_take_fresh(struct frame_pool *pool, const uint8_t **pixels, uint64_t *sequence)
{
	struct cb_pool_header *h = header_of(pool);
	if (!(cb_pool_load_handoff(h) & CB_POOL_FRESH))
		return false;

	const uint32_t got = cb_pool_exchange_handoff(h, pool->front_index);
	const uint32_t index = got & CB_POOL_INDEX_MASK;
	if ((got & ~(CB_POOL_INDEX_MASK | CB_POOL_FRESH)) != 0 || index >= CB_POOL_SLOTS) {
		/* A broken writer: keep our front index (we never read it again
		 * after taking it) and keep showing what we have. */
		atomic_fetch_add_explicit(&pool->handoff_errors, 1, memory_order_relaxed);
		return false;
	}
	pool->front_index = index;

	const uint64_t slot_sequence = cb_pool_load_u64(&h->slot_sequence[index]);
	if (pool->taken_any && slot_sequence == pool->last_taken_sequence)
		return false; /* the same frame handed over again: nothing to upload */

	pool->taken_any = true;
	pool->last_taken_sequence = slot_sequence;
	note_taken(h, index, slot_sequence);
	/* Offsets from our geometry only; the header's slot_size is never used. */
	*pixels = pool->map + CB_POOL_HEADER_SIZE + (size_t)index * (size_t)pool->slot_size;
	*sequence = slot_sequence;
	return true;
}

uint64_t frame_pool_heartbeat(const struct frame_pool *pool)
{
	return cb_pool_load_u64(&header_of(pool)->heartbeat_ns);
}

uint32_t frame_pool_producer_pid(const struct frame_pool *pool)
{
	return cb_pool_load_u32(&header_of(pool)->producer_pid);
}

bool frame_pool_read_status(const struct frame_pool *pool, uint32_t *code, char text[CB_POOL_STATUS_TEXT_SIZE])
{
	const struct cb_pool_header *h = header_of(pool);
	const uint32_t before = cb_pool_load_u32(&h->status_generation);
	if (before & 1u)
		return false; /* being written right now */

	char copy[CB_POOL_STATUS_TEXT_SIZE];
	for (size_t i = 0; i < CB_POOL_STATUS_TEXT_SIZE; i++)
		copy[i] = __atomic_load_n(&h->status_text[i], __ATOMIC_RELAXED);
	const uint32_t status_code = cb_pool_load_u32(&h->status_code);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (cb_pool_load_u32(&h->status_generation) != before)
		return false;

	copy[CB_POOL_STATUS_TEXT_SIZE - 1] = '\0';
	safe_text_make_printable(copy);
	memcpy(text, copy, sizeof(copy));
	*code = status_code;
	return true;
}

const char *frame_pool_status_name(uint32_t code)
{
	switch (code) {
	case CB_STATUS_STARTING:
		return "starting";
	case CB_STATUS_CONNECTING:
		return "connecting";
	case CB_STATUS_LIVE:
		return "live";
	case CB_STATUS_RECONNECTING:
		return "reconnecting";
	case CB_STATUS_ERROR:
		return "error";
	case CB_STATUS_PAUSED:
		return "paused";
	case CB_STATUS_WAITING:
		return "waiting";
	case CB_STATUS_ENDED:
		return "ended";
	default:
		return "unknown";
	}
}
