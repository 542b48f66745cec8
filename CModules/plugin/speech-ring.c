// SPDX-License-Identifier: GPL-2.0-or-later
#include "speech-ring.h"

#include <stdio.h>
#include <string.h>

void speech_ring_reader_init(struct speech_ring_reader *reader, struct cb_audio_ring *ring)
{
	memset(reader, 0, sizeof(*reader));
	reader->ring = ring;
}

static bool corrupt(struct speech_ring_reader *reader, const char *why, unsigned long long a, unsigned long long b)
{
	reader->corrupt = true;
	snprintf(reader->problem, sizeof(reader->problem), "%s (%llu, %llu)", why, a, b);
	return false;
}

/* The fixed fields must still be what we wrote. */
static bool header_intact(struct speech_ring_reader *reader)
{
	const struct cb_audio_ring *ring = reader->ring;
	const uint64_t magic = __atomic_load_n(&ring->magic, __ATOMIC_RELAXED);
	const uint32_t version = __atomic_load_n(&ring->version, __ATOMIC_RELAXED);
	const uint32_t header_size = __atomic_load_n(&ring->header_size, __ATOMIC_RELAXED);
	const uint32_t rate = __atomic_load_n(&ring->sample_rate, __ATOMIC_RELAXED);
	const uint32_t channels = __atomic_load_n(&ring->channels, __ATOMIC_RELAXED);
	const uint32_t format = __atomic_load_n(&ring->format, __ATOMIC_RELAXED);
	const uint32_t capacity = __atomic_load_n(&ring->capacity_frames, __ATOMIC_RELAXED);
	if (magic != CB_AUDIO_MAGIC || version != CB_AUDIO_VERSION || header_size != CB_AUDIO_HEADER_SIZE)
		return corrupt(reader, "audio ring header changed", version, header_size);
	if (rate != CB_AUDIO_RATE || channels != CB_AUDIO_CHANNELS || format != CB_AUDIO_FORMAT_F32 ||
	    capacity != CB_AUDIO_CAPACITY_FRAMES)
		return corrupt(reader, "audio ring format changed", rate, capacity);
	return true;
}

size_t speech_ring_read(struct speech_ring_reader *reader, float *out, size_t max_frames)
{
	if (reader->corrupt || !reader->ring || !header_intact(reader))
		return 0;
	struct cb_audio_ring *ring = reader->ring;
	const uint64_t capacity = CB_AUDIO_CAPACITY_FRAMES; /* ours, never the header's */
	const uint64_t written = cb_pool_load_u64(&ring->write_frames);
	uint64_t read = reader->read_frames;
	if (written < read || written - read > capacity) {
		corrupt(reader, "audio ring counters out of range", (unsigned long long)written,
			(unsigned long long)read);
		return 0;
	}
	/* A skip: frames below discard_before are dropped, if it lies in what is written. */
	const uint64_t discard = cb_pool_load_u64(&ring->discard_before);
	if (discard > read && discard <= written)
		read = discard;

	uint64_t count = written - read;
	if (count > max_frames)
		count = max_frames;
	const float *samples = (const float *)((const uint8_t *)ring + CB_AUDIO_HEADER_SIZE);
	for (uint64_t i = 0; i < count; i++) {
		const uint64_t index = (read + i) % capacity;
		float value;
		memcpy(&value, &samples[index], sizeof(value));
		/* NaN, infinities and out-of-range values from a broken writer play as silence or full scale. */
		if (!(value == value))
			value = 0.0f;
		out[i] = value > 1.0f ? 1.0f : value < -1.0f ? -1.0f : value;
	}
	read += count;
	reader->read_frames = read;
	cb_pool_store_u64(&ring->read_frames, read);
	return (size_t)count;
}

uint64_t speech_ring_utterance_ns(const struct speech_ring_reader *reader)
{
	return reader->ring ? cb_pool_load_u64(&reader->ring->utterance_ns) : 0;
}
