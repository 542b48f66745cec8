// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fake_renderer: a stand-in for `commentbar serve --pool-fd N` that the stub
 * host uses where the real renderer cannot be told to misbehave.
 *
 * COMMENTBAR_FAKE_MODE selects what it does:
 *   solid  (default) publishes frames filled with a colour derived from the
 *          stream_id of the last settings line; echoes every stdin line to stderr
 *   fuzz   scribbles random bytes over the whole header and random hand-off
 *          values for COMMENTBAR_FAKE_FUZZ_MS, checks the seals, then acts as solid
 *   bench  publishes COMMENTBAR_FAKE_FRAMES frames at COMMENTBAR_FAKE_FPS, each
 *          carrying its CLOCK_MONOTONIC publish time in its first 8 bytes
 *   hang   heartbeats for 0.5 s, then stays alive without a heartbeat, reading
 *          nothing (stdin EOF included): only SIGKILL ends it
 *   exit   exits with status 3 after 0.1 s
 *   chatty writes COMMENTBAR_FAKE_LINES lines to stderr at once, then acts as solid
 *   late   reads nothing for COMMENTBAR_FAKE_READ_AFTER_MS (a renderer busy starting: its
 *          stdin pipe fills), then acts as solid
 * Stdin lines are parsed with jansson, as JSON. With COMMENTBAR_FAKE_INPUT_LOG set, every
 * stdin line is also appended whole to that file (the OBS log cuts long lines). It exits
 * when stdin closes, as the real renderer does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "commentbar_pool.h"

static struct cb_pool_header *header;
static uint8_t *map;
static size_t map_size;
static uint32_t width, height, stride;
static uint64_t slot_size;
static uint32_t back_slot;
static uint64_t sequence;
static atomic_bool heartbeat_on = true;
static atomic_bool done;
static pthread_mutex_t frame_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static long env_long(const char *name, long fallback)
{
	const char *v = getenv(name);
	return v && *v ? strtol(v, NULL, 10) : fallback;
}

static void *heartbeat_thread(void *unused)
{
	(void)unused;
	while (!atomic_load(&done)) {
		if (atomic_load(&heartbeat_on))
			cb_pool_store_u64(&header->heartbeat_ns, now_ns());
		sleep_ms(100);
	}
	return NULL;
}

static void set_status(uint32_t code, const char *text)
{
	uint32_t generation = cb_pool_load_u32(&header->status_generation);
	cb_pool_store_u32(&header->status_generation, generation + 1); /* odd: writing */
	cb_pool_store_u32(&header->status_code, code);
	snprintf(header->status_text, CB_POOL_STATUS_TEXT_SIZE, "%s", text);
	cb_pool_store_u32(&header->status_generation, generation + 2);
}

/* Fills the back slot with one premultiplied colour, optionally stamps it, publishes. */
static void publish(uint32_t bgra, uint64_t stamp)
{
	pthread_mutex_lock(&frame_lock);
	uint8_t *slot = map + CB_POOL_HEADER_SIZE + (size_t)back_slot * slot_size;
	for (uint32_t y = 0; y < height; y++) {
		uint32_t *row = (uint32_t *)(slot + (size_t)y * stride);
		for (uint32_t x = 0; x < width; x++)
			row[x] = bgra;
	}
	if (stamp)
		memcpy(slot, &stamp, sizeof(stamp));
	sequence++;
	cb_pool_store_u64(&header->slot_sequence[back_slot], sequence);
	cb_pool_store_u64(&header->sequence, sequence);
	const uint32_t previous = cb_pool_exchange_handoff(header, back_slot | CB_POOL_FRESH);
	/* After fuzzing the middle may be garbage: take any valid slot back. */
	back_slot = (previous & CB_POOL_INDEX_MASK) < CB_POOL_SLOTS ? (previous & CB_POOL_INDEX_MASK) : 0;
	pthread_mutex_unlock(&frame_lock);
}

/* FNV-1a of the stream_id, opaque. */
static uint32_t colour_of(const char *stream_id)
{
	uint32_t hash = 2166136261u;
	for (const char *p = stream_id; *p; p++)
		hash = (hash ^ (uint8_t)*p) * 16777619u;
	return 0xFF000000u | (hash & 0x00FFFFFFu);
}

/* If line is {"settings":{...}}, returns true with the colour of its stream_id. */
static bool settings_colour(const char *line, uint32_t *colour)
{
	json_error_t error;
	json_t *root = json_loads(line, JSON_REJECT_DUPLICATES, &error);
	if (!root) {
		fprintf(stderr, "fake: not JSON (%s): %.80s\n", error.text, line);
		return false;
	}
	json_t *settings = json_object_get(root, "settings");
	const bool is_settings = json_is_object(settings);
	if (is_settings) {
		const char *stream_id = json_string_value(json_object_get(settings, "stream_id"));
		*colour = colour_of(stream_id ? stream_id : "");
	}
	json_decref(root);
	return is_settings;
}

static void fuzz_header(long duration_ms)
{
	/* The seals must refuse any change of size. */
	const int shrink = ftruncate(3, 4096);
	const int grow = ftruncate(3, (off_t)map_size * 2);
	fprintf(stderr, "fake: seal-check shrink=%s grow=%s\n", shrink == 0 ? "ALLOWED" : "refused",
		grow == 0 ? "ALLOWED" : "refused");
	unsigned seed = (unsigned)now_ns();
	const uint64_t end = now_ns() + (uint64_t)duration_ms * 1000000ull;
	uint64_t rounds = 0;
	while (now_ns() < end) {
		uint8_t *bytes = (uint8_t *)header;
		for (size_t i = 0; i < CB_POOL_HEADER_SIZE; i++)
			__atomic_store_n(&bytes[i], (uint8_t)rand_r(&seed), __ATOMIC_RELAXED);
		for (int i = 0; i < 64; i++) {
			uint32_t value = (uint32_t)rand_r(&seed);
			if (i & 1)
				value &= 0xFu; /* small values: valid-looking and invalid indices with the fresh bit */
			cb_pool_exchange_handoff(header, value);
			__atomic_store_n(&header->status_generation, (uint32_t)rand_r(&seed) & 0x3u, __ATOMIC_RELAXED);
		}
		rounds++;
		if ((rounds & 15) == 0)
			sleep_ms(1);
	}
	/* Back to a sane state so frames flow again; the shim must recover. */
	cb_pool_store_u32(&header->handoff, 1);
	back_slot = 0;
	/* A status the shim must clean up before logging: control characters,
	 * invalid, overlong, surrogate and C1 UTF-8, then valid UTF-8. */
	cb_pool_store_u32(&header->status_generation, 0);
	set_status(CB_STATUS_LIVE, "nasty:\x01\t\x7f\xc0\xaf\xed\xa0\x80\xc2\x85\xff end \xc3\xa9");
	fprintf(stderr, "fake: fuzzed the header %llu times\n", (unsigned long long)rounds);
}

/* Output a log must not take at its word: control characters that would forge
 * lines or colours, and lines far too long to log whole. */
static void write_hostile_output(void)
{
	fputs("fake: forged\rHost: evil\tx\x1b[31m red \x7f del \xc2\x9b c1 \xff bad\n", stderr);
	fputs("fake: long ", stderr);
	for (int i = 0; i < 30000; i++)
		fputc('y', stderr);
	fputc('\n', stderr);
	fputs("fake: wide ", stderr);
	for (int i = 0; i < 1000; i++)
		fputs("\xe3\x81\x82", stderr); /* あ: three bytes, so a cut can land inside one */
	fputc('\n', stderr);
	fflush(stderr);
}

int main(int argc, char **argv)
{
	int pool_fd = -1;
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], "--pool-fd") == 0)
			pool_fd = atoi(argv[i + 1]);
	if (argc < 2 || strcmp(argv[1], "serve") != 0 || pool_fd < 0) {
		fprintf(stderr, "usage: fake_renderer serve --pool-fd N\n");
		return 2;
	}
	struct stat st;
	if (fstat(pool_fd, &st) != 0) {
		fprintf(stderr, "fake: fstat pool fd %d: %s\n", pool_fd, strerror(errno));
		return 2;
	}
	map_size = (size_t)st.st_size;
	map = mmap(NULL, map_size, PROT_READ | PROT_WRITE, MAP_SHARED, pool_fd, 0);
	if (map == MAP_FAILED) {
		fprintf(stderr, "fake: mmap: %s\n", strerror(errno));
		return 2;
	}
	header = (struct cb_pool_header *)map;
	/* The ABI's one check, then what the shim's pools always are: width * 4 a row, a ring
	 * after the frames, the memfd exactly that long (docs/pool-abi.md). */
	struct cb_pool_header copy;
	memcpy(&copy, header, sizeof(copy));
	struct cb_pool_layout layout;
	const char *problem = cb_pool_check(&copy, map_size, &layout);
	if (problem || layout.stride != layout.width * 4u || layout.total_size != map_size ||
	    (copy.handoff & ~CB_POOL_INDEX_MASK) != 0) {
		fprintf(stderr, "fake: the pool header is not what the ABI says (%s; pool %llu, audio %llu+%llu, memfd %zu)\n",
			problem ? problem : "not the shim's layout", (unsigned long long)copy.pool_size,
			(unsigned long long)copy.audio_offset, (unsigned long long)copy.audio_size, map_size);
		return 2;
	}
	width = header->width;
	height = header->height;
	stride = header->stride;
	slot_size = header->slot_size;
	back_slot = 0;
	cb_pool_store_u32(&header->producer_pid, (uint32_t)getpid());

	const pid_t parent = getppid();
	const char *mode = getenv("COMMENTBAR_FAKE_MODE");
	mode = mode && *mode ? mode : "solid";
	fprintf(stderr, "fake: pid %d attached to a %ux%u pool, mode %s\n", (int)getpid(), width, height, mode);
	if (strcmp(mode, "exit") == 0) {
		sleep_ms(100);
		return 3;
	}
	if (strcmp(mode, "chatty") == 0) {
		const long lines = env_long("COMMENTBAR_FAKE_LINES", 1000);
		for (long i = 0; i < lines; i++)
			fprintf(stderr, "fake: chatter %ld\n", i);
	}
	if (strcmp(mode, "hostile-output") == 0)
		write_hostile_output();
	pthread_t heartbeat;
	pthread_create(&heartbeat, NULL, heartbeat_thread, NULL);
	set_status(CB_STATUS_LIVE, "fake renderer");

	if (strcmp(mode, "fuzz") == 0)
		fuzz_header(env_long("COMMENTBAR_FAKE_FUZZ_MS", 2000));
	if (strcmp(mode, "bench") == 0) {
		const long frames = env_long("COMMENTBAR_FAKE_FRAMES", 300);
		const long fps = env_long("COMMENTBAR_FAKE_FPS", 30);
		sleep_ms(300); /* let the host settle */
		const uint64_t period = 1000000000ull / (uint64_t)(fps > 0 ? fps : 30);
		uint64_t next = now_ns();
		for (long i = 0; i < frames; i++) {
			next += period;
			while (now_ns() < next)
				sleep_ms(1);
			publish(0xFF204060u + (uint32_t)(i & 0xF), now_ns());
		}
		fprintf(stderr, "fake: bench published %ld frames\n", frames);
	}

	const char *input_log_path = getenv("COMMENTBAR_FAKE_INPUT_LOG");
	FILE *input_log = input_log_path && *input_log_path ? fopen(input_log_path, "a") : NULL;
	uint32_t colour = 0xFF000000u;
	/* Room for the longest settings line the shim sends (1 MiB). */
	enum { LINE_CAPACITY = 2 * 1024 * 1024 };
	char *line = malloc(LINE_CAPACITY);
	size_t len = 0;
	if (strcmp(mode, "late") == 0)
		sleep_ms(env_long("COMMENTBAR_FAKE_READ_AFTER_MS", 2000));
	uint64_t hang_at = strcmp(mode, "hang") == 0 ? now_ns() + 500000000ull : 0;
	uint64_t last_publish = 0;
	for (;;) {
		struct pollfd p = {.fd = 0, .events = POLLIN};
		const int ready = poll(&p, 1, 50);
		if (ready > 0) {
			const ssize_t n = read(0, line + len, LINE_CAPACITY - 1 - len);
			if (n <= 0)
				break; /* stdin closed: OBS is done with us */
			len += (size_t)n;
			char *newline;
			while ((newline = memchr(line, '\n', len)) != NULL) {
				*newline = '\0';
				fprintf(stderr, "fake: got %s\n", line);
				if (input_log) {
					fprintf(input_log, "%s\n", line);
					fflush(input_log);
				}
				if (settings_colour(line, &colour)) {
					if (strcmp(mode, "bench") != 0)
						publish(colour, 0);
					last_publish = now_ns();
				}
				const size_t used = (size_t)(newline - line) + 1;
				memmove(line, newline + 1, len - used);
				len -= used;
			}
		}
		if (hang_at && now_ns() > hang_at) {
			/* Frozen: no heartbeat, no frames, stdin unread, as a deadlocked renderer. */
			atomic_store(&heartbeat_on, false);
			fprintf(stderr, "fake: frozen: no heartbeat, stdin unread\n");
			/* Not even EOF ends it; only its parent's death does, so that a
			 * crashed test leaves nothing behind. */
			for (;;) {
				sleep_ms(100);
				if (getppid() != parent)
					_exit(0);
			}
		}
		/* A frame a second, as a live clock would. */
		if (strcmp(mode, "bench") != 0 && now_ns() - last_publish > 1000000000ull) {
			publish(colour, 0);
			last_publish = now_ns();
		}
	}
	atomic_store(&done, true);
	pthread_join(heartbeat, NULL);
	if (input_log)
		fclose(input_log);
	free(line);
	fprintf(stderr, "fake: stdin closed, exiting\n");
	return 0;
}
