// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * speech-ring: the shim's side of the audio ring in the pool's memfd
 * (commentbar_pool.h: struct cb_audio_ring, docs/pool-abi.md). The shim made
 * the ring (cb_pool_init), so it compares every value it reads with what it wrote and with
 * its own copy of the geometry; a ring that disagrees is corrupt and gives no
 * audio again. No libobs: the unit tests drive it with a hand-made ring.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commentbar_pool.h"

struct speech_ring_reader {
	struct cb_audio_ring *ring; /* inside a mapping of at least ring_size bytes */
	uint64_t read_frames;       /* our own copy: the shared one is only ever written */
	bool corrupt;
	char problem[96]; /* why it is corrupt, for one log line */
};

/* ring: the ring's start inside a mapping that holds cb_audio_ring_size() bytes from it. */
void speech_ring_reader_init(struct speech_ring_reader *reader, struct cb_audio_ring *ring);

/* Copies up to max_frames frames that are ready into out (mono floats) and
 * consumes them. Returns the count; 0 when nothing is ready or the ring is
 * corrupt (reader->corrupt then says so, once set it stays). */
size_t speech_ring_read(struct speech_ring_reader *reader, float *out, size_t max_frames);

/* CLOCK_MONOTONIC ns the renderer stored when the newest spoken item arrived (0: none). */
uint64_t speech_ring_utterance_ns(const struct speech_ring_reader *reader);
