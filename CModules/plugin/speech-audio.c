// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "speech-audio.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <util/platform.h>

#include "plugin-log.h"
#include "shim-threads.h"
#include "speech-ring.h"

/* next_pool when no new pool is waiting (NULL is a valid hand-over: no pool). */
static struct frame_pool no_change;
#define NO_CHANGE (&no_change)

/* One tick: 10 ms of audio at most per call, the ring drained as time passes. */
#define TICK_MS 10
#define CHUNK_FRAMES (CB_AUDIO_RATE / 100u)
/* A gap longer than this and timestamps start again from now. */
#define GAP_NS 50000000ull
/* Audio is stamped this far ahead, so OBS never waits on a chunk that is on its way. */
#define LEAD_NS 20000000ull

struct speech_audio {
	pthread_mutex_t mutex; /* guards source and stopped */
	obs_source_t *source;  /* NULL once stopped */
	bool stopped;
	int wake_fd; /* eventfd: a new pool, speech turned on, stop */
	/* Handed over by the graphics thread without a lock: a new reference, or NO_CHANGE. */
	_Atomic(struct frame_pool *) next_pool;
	atomic_bool enabled; /* the source's `speech` setting: off, the thread sleeps */
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

static void wake(struct speech_audio *audio)
{
	const uint64_t one = 1;
	/* A full counter already means "wake up": the result does not matter. */
	ssize_t ignored = write(audio->wake_fd, &one, sizeof(one));
	(void)ignored;
}

/* Sleeps until woken, or for a tick while there is speech to play: with speech off (or no
 * ring to read, or a corrupt one) the thread takes no CPU at all. */
static void wait_for_work(struct speech_audio *audio)
{
	const bool listening = atomic_load(&audio->enabled) && audio->reader.ring && !audio->reader.corrupt;
	struct pollfd p = {.fd = audio->wake_fd, .events = POLLIN};
	if (poll(&p, 1, listening ? TICK_MS : -1) > 0) {
		uint64_t counter;
		ssize_t ignored = read(audio->wake_fd, &counter, sizeof(counter));
		(void)ignored;
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
		if (atomic_load(&audio->enabled))
			tick(audio, audio->source);
		else
			audio->playing = false; /* speech turned on again starts a timeline of its own */
		pthread_mutex_unlock(&audio->mutex);
		wait_for_work(audio);
	}
	adopt(audio, NULL);
	struct frame_pool *handed = atomic_exchange(&audio->next_pool, NO_CHANGE);
	if (handed != NO_CHANGE)
		frame_pool_unref(handed);
	close(audio->wake_fd);
	pthread_mutex_destroy(&audio->mutex);
	free(audio);
	return NULL;
}

struct speech_audio *speech_audio_start(obs_source_t *source, const char *name, bool enabled)
{
	struct speech_audio *audio = calloc(1, sizeof(*audio));
	if (!audio)
		return NULL;
	audio->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (audio->wake_fd < 0) {
		source_log(LOG_WARNING, name, "speech: no audio thread (%s)", strerror(errno));
		free(audio);
		return NULL;
	}
	pthread_mutex_init(&audio->mutex, NULL);
	atomic_init(&audio->next_pool, NO_CHANGE);
	atomic_init(&audio->enabled, enabled);
	audio->source = source;
	snprintf(audio->name, sizeof(audio->name), "%s", name);
	const char *trace = getenv("COMMENTBAR_SPEECH_TRACE");
	audio->trace = trace && *trace && strcmp(trace, "0") != 0;
	if (!shim_threads_start("comment-bar-aud", run, audio)) {
		source_log(LOG_WARNING, name, "speech: no audio thread");
		close(audio->wake_fd);
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
	/* Also with speech off: the thread lets the old pool's mapping go at once. */
	wake(audio);
}

void speech_audio_set_enabled(struct speech_audio *audio, bool enabled)
{
	if (audio && atomic_exchange(&audio->enabled, enabled) != enabled)
		wake(audio);
}

void speech_audio_stop(struct speech_audio *audio)
{
	if (!audio)
		return;
	/* Woken with the mutex held: the thread cannot see `stopped` and free itself before
	 * the wake is written. */
	pthread_mutex_lock(&audio->mutex);
	audio->stopped = true;
	audio->source = NULL;
	wake(audio);
	pthread_mutex_unlock(&audio->mutex);
}
