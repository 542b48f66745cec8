// SPDX-License-Identifier: GPL-2.0-or-later
#include "pool-watch.h"

#include <stdio.h>
#include <string.h>

#include "plugin-log.h"

#define NS_PER_S 1000000000ull
/* The ABI: a heartbeat at least every second (the renderer beats every 500 ms). */
#define HEARTBEAT_STALE_NS (3 * NS_PER_S)
/* Time allowed for the first heartbeat: a cold fontconfig cache is slow. */
#define FIRST_HEARTBEAT_GRACE_NS (10 * NS_PER_S)
/* Hand-off error reports: one at once, then at most one every 10 s. */
#define HANDOFF_REPORT_BURST 1
#define HANDOFF_REPORTS_PER_S 0.1

void pool_watch_init(struct pool_watch *watch, struct frame_pool *pool, pid_t pid, const char *source_name,
		     uint64_t now_ns)
{
	memset(watch, 0, sizeof(*watch));
	watch->pool = pool;
	watch->pid = pid;
	watch->source_name = source_name;
	watch->last_alive_ns = now_ns;
	log_limiter_init(&watch->handoff_reports, HANDOFF_REPORT_BURST, HANDOFF_REPORTS_PER_S, now_ns);
}

void pool_watch_check_attach(struct pool_watch *watch)
{
	if (watch->attach_logged)
		return;
	const uint32_t producer = frame_pool_producer_pid(watch->pool);
	if (!producer)
		return;
	watch->attach_logged = true;
	if (producer == (uint32_t)watch->pid)
		source_log(LOG_INFO, watch->source_name, "renderer pid %d attached to its pool (producer_pid %u)",
			   (int)watch->pid, producer);
	else
		source_log(LOG_WARNING, watch->source_name,
			   "renderer pid %d attached to its pool, but wrote producer_pid %u", (int)watch->pid, producer);
}

bool pool_watch_heartbeat_stale(struct pool_watch *watch, uint64_t now_ns, double *silent_s)
{
	const uint64_t heartbeat = frame_pool_heartbeat(watch->pool);
	if (heartbeat != watch->last_heartbeat) {
		watch->last_heartbeat = heartbeat;
		watch->last_alive_ns = now_ns;
		watch->heartbeat_seen = true;
		return false;
	}
	const uint64_t allowed = watch->heartbeat_seen ? HEARTBEAT_STALE_NS : FIRST_HEARTBEAT_GRACE_NS;
	*silent_s = (double)(now_ns - watch->last_alive_ns) / 1e9;
	return now_ns - watch->last_alive_ns > allowed;
}

void pool_watch_report_handoff_errors(struct pool_watch *watch, uint64_t now_ns, bool final)
{
	const uint64_t total = atomic_load_explicit(&watch->pool->handoff_errors, memory_order_relaxed);
	if (total == watch->handoff_errors_reported)
		return;
	if (!log_limiter_allow(&watch->handoff_reports, now_ns) && !final)
		return;
	const uint64_t new_ones = total - watch->handoff_errors_reported;
	source_log(LOG_WARNING, watch->source_name,
		   "renderer pid %d (producer_pid %u) broke the frame hand-off: %llu invalid hand-off%s since the last "
		   "report, %llu in all; those frames were not shown",
		   (int)watch->pid, frame_pool_producer_pid(watch->pool), (unsigned long long)new_ones,
		   new_ones == 1 ? "" : "s", (unsigned long long)total);
	watch->handoff_errors_reported = total;
}

bool pool_watch_status_changed(struct pool_watch *watch)
{
	uint32_t code;
	char text[CB_POOL_STATUS_TEXT_SIZE];
	if (!frame_pool_read_status(watch->pool, &code, text))
		return false;
	const char *name = frame_pool_status_name(code);
	/* The text often repeats the name ("live", "error: ..."); show only what it adds. */
	const size_t name_length = strlen(name);
	const char *detail = text;
	if (strcmp(text, name) == 0)
		detail = "";
	else if (strncmp(text, name, name_length) == 0 && strncmp(text + name_length, ": ", 2) == 0)
		detail = text + name_length + 2;
	char shown[sizeof(watch->status)];
	snprintf(shown, sizeof(shown), "%s%s%s", name, detail[0] ? ": " : "", detail);
	if (watch->status_known && strcmp(shown, watch->status) == 0)
		return false;
	watch->status_known = true;
	memcpy(watch->status, shown, sizeof(shown));
	return true;
}
