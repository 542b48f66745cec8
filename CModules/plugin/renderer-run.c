// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * renderer-run: one renderer's life under its supervisor (renderer-supervisor.c),
 * on the supervisor thread only: starting it on a new pool, feeding its stdin,
 * watching it, the restart policy, stopping it. The parts it drives each have
 * their own file: child-process (spawn, reap, kill), stdin-queue (the
 * renderer's input), stderr-log (its output), pool-watch (attach, heartbeat,
 * status, hand-off errors). It calls nothing of renderer-supervisor.c: the
 * supervisor drives it, never the other way round.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugin-log.h"
#include "renderer-supervisor-state.h"
#include "safe-text.h"

#define POLL_INTERVAL_MS 100
#define RESTART_DELAY_MAX_NS (16 * NS_PER_S)
/* A renderer that ran this long before failing was healthy: backoff resets. */
#define HEALTHY_RUN_NS (10 * NS_PER_S)
/* After stdin is closed, how long the renderer gets to exit by itself. */
#define EXIT_GRACE_NS (500 * NS_PER_MS)
/* After SIGKILL, how long we wait to reap it (a process stuck in the kernel
 * may take longer; it is then left, and logged, rather than hang the thread). */
#define KILL_REAP_LIMIT_NS (2 * NS_PER_S)

static void set_summary(struct renderer_supervisor *sup, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void set_summary(struct renderer_supervisor *sup, const char *format, ...)
{
	char text[sizeof(sup->summary)];
	va_list args;
	va_start(args, format);
	vsnprintf(text, sizeof(text), format, args);
	va_end(args);
	pthread_mutex_lock(&sup->mutex);
	memcpy(sup->summary, text, sizeof(text));
	pthread_mutex_unlock(&sup->mutex);
}

/* ---- the renderer's stdin ---- */

void renderer_run_write_input(struct renderer_supervisor *sup)
{
	struct renderer_run *run = &sup->run;
	switch (stdin_queue_flush(&sup->input, run->child.stdin_fd)) {
	case STDIN_FLUSH_DONE:
		run->input_blocked_logged = false;
		break;
	case STDIN_FLUSH_BLOCKED:
		if (!run->input_blocked_logged)
			source_log(LOG_WARNING, sup->name,
				   "the renderer is not reading its input; the newest settings wait until it does");
		run->input_blocked_logged = true;
		break;
	case STDIN_FLUSH_BROKEN:
		break; /* the renderer is gone: its exit is handled by the reaper */
	}
}

/* ---- starting, watching, stopping ---- */

static void schedule_restart(struct renderer_supervisor *sup, uint64_t now, const char *why)
{
	const uint64_t delay = sup->restart_delay_ns;
	sup->next_start_ns = now + delay;
	sup->restart_delay_ns = delay * 2 > RESTART_DELAY_MAX_NS ? RESTART_DELAY_MAX_NS : delay * 2;
	source_log(LOG_WARNING, sup->name, "renderer %s; restarting in %.2f s", why, (double)delay / 1e9);
	set_summary(sup, "%s; restarting in %.1f s", why, (double)delay / 1e9);
}

static void publish_pool(struct renderer_supervisor *sup, struct frame_pool *pool)
{
	frame_pool_ref(pool);
	pthread_mutex_lock(&sup->mutex);
	struct frame_pool *old = sup->current_pool;
	sup->current_pool = pool;
	pthread_mutex_unlock(&sup->mutex);
	frame_pool_unref(old);
}

bool renderer_run_start(struct renderer_supervisor *sup, uint32_t width, uint32_t height)
{
	struct renderer_run *run = &sup->run;
	char why[256];
	const uint64_t now = supervisor_now_ns();

	struct frame_pool *pool = frame_pool_create(width, height, why, sizeof(why));
	if (!pool) {
		source_log(LOG_ERROR, sup->name, "cannot create the frame pool: %s", why);
		schedule_restart(sup, now, "has no frame pool");
		return false;
	}
	if (!child_process_spawn(&run->child, sup->renderer_path, pool->fd, why, sizeof(why))) {
		char path[SAFE_TEXT_LOG_SIZE];
		safe_text_escape_string(path, sizeof(path), sup->renderer_path);
		source_log(LOG_ERROR, sup->name, "cannot start the renderer %s: %s", path, why);
		frame_pool_unref(pool);
		schedule_restart(sup, now, "could not be started");
		return false;
	}
	run->pool = pool;
	run->started_ns = now;
	pool_watch_init(&run->watch, pool, run->child.pid, sup->name, now);
	/* A new renderer knows nothing yet: it gets every channel's newest line, settings first. */
	stdin_queue_restart(&sup->input);
	run->input_blocked_logged = false;
	publish_pool(sup, pool);
	source_log(LOG_INFO, sup->name, "started renderer pid %d with a %ux%u pool", (int)run->child.pid, width, height);
	set_summary(sup, "starting (pid %d)", (int)run->child.pid);
	return true;
}

static void read_output(struct renderer_supervisor *sup)
{
	struct child_process *child = &sup->run.child;
	if (child->stderr_fd >= 0 && !stderr_log_read(&sup->output, child->stderr_fd)) {
		close(child->stderr_fd);
		child->stderr_fd = -1;
	}
}

/* Releases what we hold of a renderer that has been reaped. */
static void forget_renderer(struct renderer_supervisor *sup)
{
	struct renderer_run *run = &sup->run;
	read_output(sup); /* whatever it said last */
	stderr_log_finish_line(&sup->output);
	stderr_log_report_left_out(&sup->output);
	pool_watch_report_handoff_errors(&run->watch, supervisor_now_ns(), true);
	child_process_forget(&run->child);
	stdin_queue_restart(&sup->input);
	/* The published pool stays: OBS keeps showing its last frame. */
	frame_pool_unref(run->pool);
	run->pool = NULL;
}

/* SIGKILL and reap; a process that will not go is logged and left. */
static void kill_renderer(struct renderer_supervisor *sup)
{
	struct child_process *child = &sup->run.child;
	if (!child_process_kill(child, KILL_REAP_LIMIT_NS))
		source_log(LOG_ERROR, sup->name, "renderer pid %d did not end within %.0f s of SIGKILL; left unreaped",
			   (int)child->pid, (double)KILL_REAP_LIMIT_NS / 1e9);
}

/* Closes stdin (the renderer's signal to exit), waits briefly, then kills. */
void renderer_run_stop(struct renderer_supervisor *sup, const char *reason)
{
	struct child_process *child = &sup->run.child;
	if (!child->pid)
		return;
	child_process_close_stdin(child);
	const uint64_t deadline = supervisor_now_ns() + EXIT_GRACE_NS;
	char why[128] = "";
	bool exited = false;
	while (!(exited = child_process_reap(child, why, sizeof(why))) && supervisor_now_ns() < deadline) {
		/* Keep draining its output so a chatty renderer cannot block on it. */
		struct pollfd p = {.fd = child->stderr_fd, .events = POLLIN};
		if (poll(&p, child->stderr_fd >= 0 ? 1 : 0, 10) > 0)
			read_output(sup);
	}
	if (exited) {
		source_log(LOG_INFO, sup->name, "renderer pid %d %s (%s)", (int)child->pid, why, reason);
	} else {
		source_log(LOG_WARNING, sup->name,
			   "renderer pid %d did not exit within %.1f s of its input closing; killed (%s)",
			   (int)child->pid, (double)EXIT_GRACE_NS / 1e9, reason);
		kill_renderer(sup);
	}
	forget_renderer(sup);
}

static void watch_status(struct renderer_supervisor *sup)
{
	struct renderer_run *run = &sup->run;
	if (!pool_watch_status_changed(&run->watch))
		return;
	/* A renderer flipping its status cannot flood the log either: it shares the lines' budget. */
	stderr_log_status(&sup->output, run->watch.status);
	set_summary(sup, "running (pid %d): %s", (int)run->child.pid, run->watch.status);
}

/* Restart policy: a renderer that ended or stopped beating is replaced after
 * a delay that doubles (0.25 s up to 16 s) and resets after a healthy run. */
void renderer_run_supervise(struct renderer_supervisor *sup, uint32_t want_width, uint32_t want_height)
{
	struct renderer_run *run = &sup->run;
	const uint64_t now = supervisor_now_ns();
	char why[160];

	if (child_process_reap(&run->child, why, sizeof(why))) {
		const uint64_t ran = now - run->started_ns;
		const int pid = run->child.pid;
		forget_renderer(sup);
		if (ran >= HEALTHY_RUN_NS)
			sup->restart_delay_ns = RESTART_DELAY_FIRST_NS;
		char what[200];
		snprintf(what, sizeof(what), "pid %d %s after %.1f s", pid, why, (double)ran / 1e9);
		schedule_restart(sup, now, what);
		return;
	}
	pool_watch_check_attach(&run->watch);
	pool_watch_report_handoff_errors(&run->watch, now, false);
	double silent = 0;
	if (pool_watch_heartbeat_stale(&run->watch, now, &silent)) {
		const int pid = run->child.pid;
		kill_renderer(sup);
		forget_renderer(sup);
		char what[160];
		snprintf(what, sizeof(what), "pid %d gave no heartbeat for %.1f s and was killed", pid, silent);
		schedule_restart(sup, now, what);
		return;
	}
	if (run->pool->width != want_width || run->pool->height != want_height) {
		/* A pool's size is fixed: a new size is a new pool and a new renderer.
		 * OBS keeps drawing the old texture until the new frame arrives. */
		renderer_run_stop(sup, "the size changed");
		sup->next_start_ns = now;
		return;
	}
	watch_status(sup);
	renderer_run_write_input(sup);
}

void renderer_run_wait_for_events(struct renderer_supervisor *sup)
{
	struct child_process *child = &sup->run.child;
	struct pollfd fds[3];
	nfds_t count = 0;
	fds[count++] = (struct pollfd){.fd = sup->wake_fd, .events = POLLIN};
	if (child->pid && child->stderr_fd >= 0)
		fds[count++] = (struct pollfd){.fd = child->stderr_fd, .events = POLLIN};
	if (child->pid && child->stdin_fd >= 0 && stdin_queue_has_lines(&sup->input))
		fds[count++] = (struct pollfd){.fd = child->stdin_fd, .events = POLLOUT};

	int timeout_ms = POLL_INTERVAL_MS;
	if (!child->pid) {
		const uint64_t now = supervisor_now_ns();
		const uint64_t until = sup->next_start_ns > now ? sup->next_start_ns - now : 0;
		if (until / NS_PER_MS < (uint64_t)timeout_ms)
			timeout_ms = (int)(until / NS_PER_MS);
	}
	if (poll(fds, count, timeout_ms) <= 0)
		return;
	if (fds[0].revents & POLLIN) {
		uint64_t counter;
		ssize_t ignored = read(sup->wake_fd, &counter, sizeof(counter));
		(void)ignored;
	}
	for (nfds_t i = 1; i < count; i++)
		if (fds[i].fd == child->stderr_fd && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
			read_output(sup);
}

