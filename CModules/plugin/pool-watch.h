// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pool-watch: what the supervisor learns from a running renderer's pool, all
 * of it read as hostile (docs/pool-abi.md): the attach (producer_pid), the
 * heartbeat, the status, and the hand-off errors video_tick counted.
 * Supervisor thread only.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "frame-pool.h"
#include "log-limiter.h"

/* "name: text" as shown: the status name and the renderer's (printable) text. */
#define POOL_WATCH_STATUS_SIZE (CB_POOL_STATUS_TEXT_SIZE + 32)

struct pool_watch {
	struct frame_pool *pool; /* borrowed from the supervisor */
	pid_t pid;
	const char *source_name; /* escaped; owned by the caller */
	bool attach_logged;
	uint64_t last_heartbeat;
	uint64_t last_alive_ns;
	bool heartbeat_seen;
	uint64_t handoff_errors_reported;
	struct log_limiter handoff_reports;
	bool status_known;
	char status[POOL_WATCH_STATUS_SIZE];
};

void pool_watch_init(struct pool_watch *watch, struct frame_pool *pool, pid_t pid, const char *source_name,
		     uint64_t now_ns);
/* Logs, once, the producer_pid the renderer wrote: the ABI's sign that it attached. */
void pool_watch_check_attach(struct pool_watch *watch);
/* Liveness is the heartbeat changing, not its value compared with our clock.
 * True when it has not changed for too long; *silent_s says how long. */
bool pool_watch_heartbeat_stale(struct pool_watch *watch, uint64_t now_ns, double *silent_s);
/* Logs hand-offs that named no valid slot, with who wrote them: at once, then
 * at most every 10 s; `final` (the renderer is gone) reports what is left. */
void pool_watch_report_handoff_errors(struct pool_watch *watch, uint64_t now_ns, bool final);
/* One seqlock attempt. True when the status differs from the last one seen,
 * with its printable "name: text" form in watch->status. */
bool pool_watch_status_changed(struct pool_watch *watch);
