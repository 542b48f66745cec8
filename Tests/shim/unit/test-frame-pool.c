// SPDX-License-Identifier: GPL-2.0-or-later
/* The shim's reader of the frame pool (frame-pool.c): a frame taken for OBS leaves the latency
 * probe's stamps (docs/pool-abi.md, offsets 280 to 359) for a benchmark to read, whatever the
 * renderer wrote into its own stamps; a hand-off naming no slot leaves them as they were. */
#define _GNU_SOURCE
#include <time.h>

#include "check.h"
#include "frame-pool.h"
#include "unit-tests.h"

static uint64_t monotonic_ns(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/* As the renderer publishes: the slot's stamps and sequence, then the hand-off. */
static void publish(struct cb_pool_header *h, uint32_t slot, uint64_t sequence, uint64_t published, uint64_t changed)
{
	cb_pool_store_u64(&h->slot_published_ns[slot], published);
	cb_pool_store_u64(&h->slot_changed_ns[slot], changed);
	cb_pool_store_u64(&h->slot_sequence[slot], sequence);
	cb_pool_exchange_handoff(h, slot | CB_POOL_FRESH);
}

void test_frame_pool(void)
{
	char err[256] = "";
	struct frame_pool *pool = frame_pool_create(64, 16, err, sizeof(err));
	check(pool != NULL, "frame pool: a 64x16 pool is made", "%s", err);
	if (!pool)
		return;
	struct cb_pool_header *h = (struct cb_pool_header *)pool->map;
	check(cb_pool_load_u64(&h->taken_sequence) == 0 && cb_pool_load_u64(&h->taken_ns) == 0,
	      "frame pool: no frame taken, no probe stamps", NULL);

	const uint8_t *pixels = NULL;
	uint64_t sequence = 0;
	const uint64_t before = monotonic_ns();
	publish(h, 0, 7, 5000, 4000);
	const bool took = frame_pool_take_fresh(pool, &pixels, &sequence);
	const uint64_t after = monotonic_ns();
	const uint64_t taken_ns = cb_pool_load_u64(&h->taken_ns);
	check(took && sequence == 7 && cb_pool_load_u64(&h->taken_sequence) == 7 &&
		      cb_pool_load_u64(&h->taken_published_ns) == 5000 && cb_pool_load_u64(&h->taken_changed_ns) == 4000 &&
		      taken_ns >= before && taken_ns <= after,
	      "frame pool: the frame taken leaves its sequence, the renderer's stamps and the moment it was taken",
	      "sequence %llu, taken at %llu (between %llu and %llu)", (unsigned long long)sequence,
	      (unsigned long long)taken_ns, (unsigned long long)before, (unsigned long long)after);

	/* Stamps that make no sense are copied as they are: nothing here acts on them. */
	publish(h, 1, 8, UINT64_MAX, 1);
	frame_pool_take_fresh(pool, &pixels, &sequence);
	check(cb_pool_load_u64(&h->taken_sequence) == 8 && cb_pool_load_u64(&h->taken_published_ns) == UINT64_MAX &&
		      cb_pool_load_u64(&h->taken_changed_ns) == 1,
	      "frame pool: a renderer's nonsense stamps are copied, never used", NULL);

	/* A hand-off naming no slot: nothing taken, the last stamps stay. */
	cb_pool_exchange_handoff(h, 3 | CB_POOL_FRESH);
	check(!frame_pool_take_fresh(pool, &pixels, &sequence) && cb_pool_load_u64(&h->taken_sequence) == 8,
	      "frame pool: a hand-off naming no slot takes nothing and keeps the last stamps", NULL);
	frame_pool_unref(pool);
}
