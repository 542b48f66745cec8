// SPDX-License-Identifier: GPL-2.0-or-later
/* The pool's one header writer and one header check (pool_abi.c), and the overlay helper's
 * reader (overlay-pool.c) refusing hostile headers: a size sum that wraps around in 64 bits,
 * an audio ring outside the mapping, a stride no row fits in. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "commentbar_pool.h"
#include "overlay-pool.h"
#include "unit-tests.h"

/* A memfd of size bytes holding header at its start, as a renderer would hand it on. */
static int pool_fd(const struct cb_pool_header *header, uint64_t size)
{
	const int fd = memfd_create("commentbar-pool-unit", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)size) != 0 || pwrite(fd, header, sizeof(*header), 0) != sizeof(*header)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* What the overlay helper says of a pool made of header and size bytes: NULL if it opens it. */
static const char *overlay_verdict(const struct cb_pool_header *header, uint64_t size, char *why, size_t why_size)
{
	const int fd = pool_fd(header, size);
	if (fd < 0)
		return "no memfd";
	struct overlay_pool pool;
	const bool opened = overlay_pool_open(&pool, fd, why, why_size);
	if (opened)
		overlay_pool_close(&pool);
	close(fd);
	return opened ? NULL : why;
}

static void test_writer(void)
{
	struct cb_pool_layout layout;
	const char *why = cb_pool_layout_make(&layout, 320, 96, CB_AUDIO_CAPACITY_FRAMES);
	const uint64_t slot = 320 * 4 * 96; /* 122880: a multiple of 4096 already */
	const uint64_t frames = CB_POOL_HEADER_SIZE + 3 * slot;
	check(!why && layout.stride == 1280 && layout.slot_size == slot && layout.pool_size == frames &&
		      layout.audio_offset == frames && layout.audio_size == cb_audio_ring_size() &&
		      layout.total_size == frames + cb_audio_ring_size(),
	      "pool ABI: the layout of a 320x96 pool with a ring is the one docs/pool-abi.md gives", "%s",
	      why ? why : "sizes differ");
	cb_pool_layout_make(&layout, 333, 7, 0);
	check(layout.slot_size == 12288 && layout.audio_offset == 0 && layout.total_size == layout.pool_size,
	      "pool ABI: slots are rounded up to pages; no ring asked, none laid out", "slot %llu",
	      (unsigned long long)layout.slot_size);
	check(cb_pool_layout_make(&layout, 0, 10, 0) && cb_pool_layout_make(&layout, 8193, 10, 0) &&
		      cb_pool_layout_make(&layout, 10, 8193, 0) && layout.total_size == 0,
	      "pool ABI: a width or height outside 1..8192 has no layout", NULL);

	cb_pool_layout_make(&layout, 64, 64, 4800);
	unsigned char *map = calloc(1, (size_t)layout.total_size);
	check(cb_pool_init(map, layout.total_size - 1, &layout) != NULL,
	      "pool ABI: a mapping smaller than the layout is refused", NULL);
	struct cb_pool_layout forged = layout;
	forged.slot_size = 4096;
	check(cb_pool_init(map, layout.total_size, &forged) != NULL,
	      "pool ABI: a layout cb_pool_layout_make would not give is refused", NULL);
	why = cb_pool_init(map, layout.total_size, &layout);
	const struct cb_pool_header *h = (const struct cb_pool_header *)map;
	const struct cb_audio_ring *ring = (const struct cb_audio_ring *)(map + layout.audio_offset);
	check(!why && h->magic == CB_POOL_MAGIC && h->version == CB_POOL_VERSION && h->width == 64 &&
		      h->stride == 256 && h->slot_count == 3 && h->handoff == 1 && h->pool_size == layout.pool_size &&
		      h->audio_offset == layout.audio_offset && ring->magic == CB_AUDIO_MAGIC &&
		      ring->capacity_frames == 4800 && ring->sample_rate == CB_AUDIO_RATE && h->sequence == 0,
	      "pool ABI: the writer fills the header and the ring's header as the ABI says", "%s", why ? why : "");
	struct cb_pool_layout found;
	why = cb_pool_check(h, layout.total_size, &found);
	check(!why && memcmp(&found, &layout, sizeof(found)) == 0,
	      "pool ABI: the check accepts what the writer wrote and finds the same layout", "%s", why ? why : "differs");
	free(map);
}

static void test_hostile_headers(void)
{
	struct cb_pool_layout layout;
	cb_pool_layout_make(&layout, 64, 64, 0);
	struct cb_pool_header good;
	unsigned char *page = calloc(1, (size_t)layout.total_size);
	cb_pool_init(page, layout.total_size, &layout);
	memcpy(&good, page, sizeof(good));
	free(page);
	char why[256];
	check(overlay_verdict(&good, layout.total_size, why, sizeof(why)) == NULL,
	      "overlay pool: a header the writer made opens", "%s", why);

	/* issue 28: 4096 + 3 * slot_size wraps around in 64 bits to a size that fits the memfd;
	 * slot offsets computed from slot_size would then point far outside the mapping. */
	struct cb_pool_header wrap = good;
	wrap.slot_size = 0x5555555555556000ull; /* (2^64 + 8192) / 3, a multiple of 4096 */
	wrap.pool_size = (uint64_t)CB_POOL_HEADER_SIZE + (uint64_t)CB_POOL_SLOTS * wrap.slot_size; /* wraps */
	const char *verdict = overlay_verdict(&wrap, wrap.pool_size, why, sizeof(why));
	check(wrap.pool_size == 3 * 4096 && wrap.slot_size % CB_POOL_SLOT_ALIGN == 0 && verdict &&
		      strstr(verdict, "pool size"),
	      "overlay pool: a slot size whose 4096 + 3 * slot_size wraps around to the memfd's size is refused", "%s",
	      verdict ? verdict : "opened");

	struct cb_pool_header ring_outside = good;
	ring_outside.audio_offset = 0xFFFFFFFFFFFFF000ull;
	ring_outside.audio_size = 0x2000;
	verdict = overlay_verdict(&ring_outside, layout.total_size, why, sizeof(why));
	check(verdict && strstr(verdict, "audio"), "overlay pool: an audio ring whose end wraps around is refused", "%s",
	      verdict ? verdict : "opened");

	struct cb_pool_header wide = good;
	wide.stride = 0xFFFFFFFCu;
	verdict = overlay_verdict(&wide, layout.total_size, why, sizeof(why));
	check(verdict && strstr(verdict, "slot size"), "overlay pool: a stride no slot holds is refused", "%s",
	      verdict ? verdict : "opened");

	struct cb_pool_header short_memfd = good;
	verdict = overlay_verdict(&short_memfd, layout.total_size - 4096, why, sizeof(why));
	check(verdict && strstr(verdict, "pool size"), "overlay pool: a memfd shorter than the header says is refused",
	      "%s", verdict ? verdict : "opened");

	struct cb_pool_header huge = good;
	huge.width = 9000;
	verdict = overlay_verdict(&huge, layout.total_size, why, sizeof(why));
	check(verdict && strstr(verdict, "frame size"), "overlay pool: a width over 8192 is refused", "%s",
	      verdict ? verdict : "opened");
}

void test_pool_abi(void)
{
	test_writer();
	test_hostile_headers();
}
