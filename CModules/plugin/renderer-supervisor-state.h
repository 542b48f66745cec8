// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * renderer-supervisor-state: what the supervisor thread (renderer-supervisor.c)
 * and the renderer it runs (renderer-run.c) share. Private to those two files.
 */
#pragma once

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "child-process.h"
#include "frame-pool.h"
#include "log-limiter.h"
#include "pool-watch.h"
#include "stderr-log.h"
#include "stdin-queue.h"

#define NS_PER_MS 1000000ull
#define NS_PER_S 1000000000ull
/* The first restart waits this long; then twice as long each time (renderer-run.c). */
#define RESTART_DELAY_FIRST_NS (250 * NS_PER_MS)

/* The renderer being supervised: what the supervisor thread knows of it. */
struct renderer_run {
	struct child_process child;
	struct frame_pool *pool; /* its pool; one reference */
	uint64_t started_ns;
	struct pool_watch watch;
	bool input_blocked_logged;
};

struct renderer_supervisor {
	/* Two: the source's (dropped by stop) and the thread's (dropped when it ends). */
	atomic_int refs;
	char *name; /* escaped for the log */
	char *renderer_path;
	int wake_fd; /* eventfd: requests from OBS's threads wake the poll */

	/* The renderer's stdin: OBS's threads put each channel's newest line (its own lock per
	 * channel), the supervisor thread writes them. Settings lines only when they fit. */
	struct stdin_queue input;

	/* Guarded by mutex, which is only ever held to copy these (no I/O). */
	pthread_mutex_t mutex;
	uint32_t want_width;
	uint32_t want_height;
	bool stopping;
	bool settings_rejected;          /* the newest settings were too long: not sent */
	size_t rejected_length;          /* of the last one rejected */
	uint64_t rejected_count;         /* how many were rejected, ever */
	struct frame_pool *current_pool; /* one reference, owned by this field */
	char summary[256];

	/* Only the supervisor thread touches these. */
	struct renderer_run run;
	uint64_t restart_delay_ns;
	uint64_t next_start_ns;
	uint64_t rejected_reported;
	struct log_limiter rejected_reports;
	struct stderr_log output; /* its limiter outlives each renderer */
};


static inline uint64_t supervisor_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* ---- renderer-run.c: one renderer's life, on the supervisor thread only ---- */

/* Makes a pool and spawns the renderer on it; false (a restart scheduled) if either fails. */
bool renderer_run_start(struct renderer_supervisor *sup, uint32_t width, uint32_t height);
/* Reaps, watches and feeds the running renderer; replaces it when it ended,
 * stopped beating or the size changed. */
void renderer_run_supervise(struct renderer_supervisor *sup, uint32_t want_width, uint32_t want_height);
/* Writes what the renderer has not had of its stdin's channels, as far as it reads. */
void renderer_run_write_input(struct renderer_supervisor *sup);
/* Closes its stdin, gives it EXIT_GRACE_NS, kills it if needed, reaps it. */
void renderer_run_stop(struct renderer_supervisor *sup, const char *reason);
/* Polls the wake fd and the renderer's pipes for at most POLL_INTERVAL_MS (or until the next start). */
void renderer_run_wait_for_events(struct renderer_supervisor *sup);
