// SPDX-License-Identifier: GPL-2.0-or-later
/* The shim's reader of the pool's audio ring: it plays what the renderer wrote, in order,
 * honours a skip, and treats a ring whose header or counters make no sense as corrupt
 * (no audio, never a read out of bounds) rather than trusting it. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "speech-ring.h"
#include "unit-tests.h"

struct test_pool {
	struct cb_pool_header *header;
	uint8_t *memory; /* the whole pool, as the shim makes it (cb_pool_init) */
	struct cb_audio_ring *ring;
	float *samples;
};

static void make(struct test_pool *pool)
{
	struct cb_pool_layout layout;
	cb_pool_layout_make(&layout, 1, 1, CB_AUDIO_CAPACITY_FRAMES);
	pool->memory = calloc(1, (size_t)layout.total_size);
	cb_pool_init(pool->memory, layout.total_size, &layout);
	pool->header = (struct cb_pool_header *)pool->memory;
	pool->ring = (struct cb_audio_ring *)(pool->memory + layout.audio_offset);
	pool->samples = (float *)((uint8_t *)pool->ring + CB_AUDIO_HEADER_SIZE);
}

/* As the renderer writes: samples first, then the counter. */
static void write_frames(struct test_pool *pool, float first, size_t count)
{
	uint64_t written = pool->ring->write_frames;
	for (size_t i = 0; i < count; i++)
		pool->samples[(written + i) % CB_AUDIO_CAPACITY_FRAMES] = first + (float)i / 100000.0f;
	cb_pool_store_u64(&pool->ring->write_frames, written + count);
}

void test_speech_ring(void)
{
	struct test_pool pool;
	make(&pool);
	check(pool.header->audio_size == cb_audio_ring_size() && pool.ring->capacity_frames == CB_AUDIO_CAPACITY_FRAMES,
	      "speech ring: the creator writes the ring's geometry and the pool header's audio fields", NULL);

	struct speech_ring_reader reader;
	speech_ring_reader_init(&reader, pool.ring);
	float out[2048];
	check(speech_ring_read(&reader, out, 2048) == 0 && !reader.corrupt,
	      "speech ring: an empty ring (a renderer without speech) gives nothing and is not corrupt", NULL);

	write_frames(&pool, 0.25f, 1000);
	size_t got = speech_ring_read(&reader, out, 600);
	size_t rest = speech_ring_read(&reader, out + 600, 2048);
	check(got == 600 && rest == 400 && out[0] == 0.25f && out[999] > 0.25f && pool.ring->read_frames == 1000,
	      "speech ring: frames come out in order, at most as many as asked, and are consumed", "%zu + %zu", got,
	      rest);

	/* Wrapping round the end of the ring. */
	pool.ring->write_frames = pool.ring->read_frames = reader.read_frames = CB_AUDIO_CAPACITY_FRAMES - 10;
	write_frames(&pool, 0.5f, 30);
	got = speech_ring_read(&reader, out, 2048);
	check(got == 30 && out[0] == 0.5f && out[29] > out[9], "speech ring: reading wraps round the end", "%zu", got);

	/* A skip: frames below discard_before are dropped unplayed. */
	write_frames(&pool, 0.1f, 500);
	cb_pool_store_u64(&pool.ring->discard_before, pool.ring->write_frames - 100);
	got = speech_ring_read(&reader, out, 2048);
	check(got == 100, "speech ring: a skip drops what was written before it", "%zu", got);

	/* Hostile values: NaN and out-of-range samples are clamped. */
	write_frames(&pool, 0.0f, 2);
	pool.samples[(pool.ring->write_frames - 2) % CB_AUDIO_CAPACITY_FRAMES] = 7.0f;
	memset(&pool.samples[(pool.ring->write_frames - 1) % CB_AUDIO_CAPACITY_FRAMES], 0xFF, sizeof(float));
	got = speech_ring_read(&reader, out, 2048);
	check(got == 2 && out[0] == 1.0f && out[1] == 0.0f, "speech ring: out-of-range and NaN samples are made safe",
	      "%zu %f %f", got, (double)out[0], (double)out[1]);

	/* Counters that make no sense: more written than the ring holds. */
	cb_pool_store_u64(&pool.ring->write_frames, reader.read_frames + CB_AUDIO_CAPACITY_FRAMES + 1);
	got = speech_ring_read(&reader, out, 2048);
	check(got == 0 && reader.corrupt && strstr(reader.problem, "counters"),
	      "speech ring: a write counter beyond the ring's capacity makes it corrupt: no audio", "%s", reader.problem);
	cb_pool_store_u64(&pool.ring->write_frames, reader.read_frames + 10);
	check(speech_ring_read(&reader, out, 2048) == 0, "speech ring: a corrupt ring stays silent", NULL);

	/* A write counter behind the read counter. */
	speech_ring_reader_init(&reader, pool.ring);
	reader.read_frames = 100;
	cb_pool_store_u64(&pool.ring->write_frames, 50);
	check(speech_ring_read(&reader, out, 2048) == 0 && reader.corrupt,
	      "speech ring: a write counter behind the reader makes it corrupt", NULL);

	/* A header changed under us (capacity, format). */
	speech_ring_reader_init(&reader, pool.ring);
	pool.ring->capacity_frames = 1u << 30;
	check(speech_ring_read(&reader, out, 2048) == 0 && reader.corrupt && strstr(reader.problem, "format"),
	      "speech ring: a changed capacity is never used: the ring is corrupt", "%s", reader.problem);
	pool.ring->capacity_frames = CB_AUDIO_CAPACITY_FRAMES;
	pool.ring->magic = 0;
	speech_ring_reader_init(&reader, pool.ring);
	check(speech_ring_read(&reader, out, 2048) == 0 && reader.corrupt, "speech ring: a bad magic is corrupt", NULL);
	free(pool.memory);
}
