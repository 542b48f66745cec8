// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "speech-audio.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <util/platform.h>

#include "plugin-log.h"
#include "speech-ring.h"

/* next_pool when no new pool is waiting (NULL is a valid hand-over: no pool). */
static struct frame_pool no_change;
#define NO_CHANGE (&no_change)

/* One tick: 10 ms of audio at most per call, the ring drained as time passes. */
#define TICK_NS 10000000ull
#define CHUNK_FRAMES (CB_AUDIO_RATE / 100u)
/* A gap longer than this and timestamps start again from now. */
#define GAP_NS 50000000ull
/* Audio is stamped this far ahead, so OBS never waits on a chunk that is on its way. */
#define LEAD_NS 20000000ull

struct speech_audio {
	pthread_mutex_t mutex; /* guards source and stopped */
	obs_source_t *source;  /* NULL once stopped */
	bool stopped;
	/* Handed over by the graphics thread without a lock: a new reference, or NO_CHANGE. */
	_Atomic(struct frame_pool *) next_pool;
	char name[128];
	bool trace; /* COMMENTBAR_SPEECH_TRACE: log each start of speech (benchmarks) */

	/* Only the thread touches these. */
	struct frame_pool *pool;
	struct speech_ring_reader reader;
	bool corrupt_logged;
	bool playing;
	uint64_t start_ns;     /* timestamp of the first frame since speech started */
	uint64_t emitted;      /* frames output since start_ns */
	uint64_t last_utterance_ns;
};

static void adopt(struct speech_audio *audio, struct frame_pool *pool)
{
	frame_pool_unref(audio->pool);
	audio->pool = pool;
	audio->playing = false;
	audio->corrupt_logged = false;
	memset(&audio->reader, 0, sizeof(audio->reader));
	if (pool && pool->ring_offset)
		speech_ring_reader_init(&audio->reader, (struct cb_audio_ring *)(pool->map + pool->ring_offset));
}

static void tick(struct speech_audio *audio, obs_source_t *source)
{
	if (!audio->reader.ring)
		return;
	const uint64_t now = os_gettime_ns();
	if (!audio->playing) {
		audio->start_ns = now + LEAD_NS;
		audio->emitted = 0;
	}
	/* Frames due by now (plus the lead), at most a chunk per call. */
	uint64_t due_ns = now + LEAD_NS > audio->start_ns ? now + LEAD_NS - audio->start_ns : 0;
	uint64_t due = due_ns * CB_AUDIO_RATE / 1000000000ull;
	uint64_t want = due > audio->emitted ? due - audio->emitted : 0;
	if (!audio->playing)
		want = CHUNK_FRAMES;
	float samples[CHUNK_FRAMES * 4];
	while (want > 0) {
		const size_t ask = want > CHUNK_FRAMES * 4 ? CHUNK_FRAMES * 4 : (size_t)want;
		const size_t got = speech_ring_read(&audio->reader, samples, ask);
		if (audio->reader.corrupt && !audio->corrupt_logged) {
			source_log(LOG_WARNING, audio->name, "speech: the audio ring is corrupt, no audio from it: %s",
				   audio->reader.problem);
			audio->corrupt_logged = true;
		}
		if (got == 0) {
			/* Silence: after a gap the next speech starts its own timeline. */
			if (audio->playing && now > audio->start_ns + audio->emitted * 1000000000ull / CB_AUDIO_RATE + GAP_NS)
				audio->playing = false;
			return;
		}
		if (!audio->playing) {
			audio->playing = true;
			if (audio->trace) {
				const uint64_t arrived = speech_ring_utterance_ns(&audio->reader);
				if (arrived && arrived != audio->last_utterance_ns && arrived < now)
					source_log(LOG_INFO, audio->name, "speech trace: first sample %.1f ms after the item arrived",
						   (double)(now - arrived) / 1e6);
				audio->last_utterance_ns = arrived;
			}
		}
		struct obs_source_audio out = {
			.data = {(const uint8_t *)samples},
			.frames = (uint32_t)got,
			.speakers = SPEAKERS_MONO,
			.format = AUDIO_FORMAT_FLOAT,
			.samples_per_sec = CB_AUDIO_RATE,
			.timestamp = audio->start_ns + audio->emitted * 1000000000ull / CB_AUDIO_RATE,
		};
		obs_source_output_audio(source, &out);
		audio->emitted += got;
		want -= got;
	}
}

static void *run(void *data)
{
	struct speech_audio *audio = data;
	for (;;) {
		pthread_mutex_lock(&audio->mutex);
		if (audio->stopped) {
			pthread_mutex_unlock(&audio->mutex);
			break;
		}
		struct frame_pool *handed = atomic_exchange(&audio->next_pool, NO_CHANGE);
		if (handed != NO_CHANGE)
			adopt(audio, handed);
		/* Held while handing audio to OBS: stop waits for this one call at most. */
		tick(audio, audio->source);
		pthread_mutex_unlock(&audio->mutex);
		struct timespec pause = {0, TICK_NS};
		nanosleep(&pause, NULL);
	}
	adopt(audio, NULL);
	struct frame_pool *handed = atomic_exchange(&audio->next_pool, NO_CHANGE);
	if (handed != NO_CHANGE)
		frame_pool_unref(handed);
	pthread_mutex_destroy(&audio->mutex);
	free(audio);
	return NULL;
}

struct speech_audio *speech_audio_start(obs_source_t *source, const char *name)
{
	struct speech_audio *audio = calloc(1, sizeof(*audio));
	if (!audio)
		return NULL;
	pthread_mutex_init(&audio->mutex, NULL);
	atomic_init(&audio->next_pool, NO_CHANGE);
	audio->source = source;
	snprintf(audio->name, sizeof(audio->name), "%s", name);
	const char *trace = getenv("COMMENTBAR_SPEECH_TRACE");
	audio->trace = trace && *trace && strcmp(trace, "0") != 0;
	pthread_t thread;
	pthread_attr_t attributes;
	pthread_attr_init(&attributes);
	pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
	const int error = pthread_create(&thread, &attributes, run, audio);
	pthread_attr_destroy(&attributes);
	if (error != 0) {
		source_log(LOG_WARNING, name, "speech: no audio thread (%s)", strerror(error));
		pthread_mutex_destroy(&audio->mutex);
		free(audio);
		return NULL;
	}
	return audio;
}

void speech_audio_set_pool(struct speech_audio *audio, struct frame_pool *pool)
{
	if (!audio)
		return;
	struct frame_pool *old = atomic_exchange(&audio->next_pool, frame_pool_ref(pool));
	if (old != NO_CHANGE)
		frame_pool_unref(old);
}

void speech_audio_stop(struct speech_audio *audio)
{
	if (!audio)
		return;
	pthread_mutex_lock(&audio->mutex);
	audio->stopped = true;
	audio->source = NULL;
	pthread_mutex_unlock(&audio->mutex);
}
