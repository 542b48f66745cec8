/*
 * The supervisor loop and its restart policy. The parts it drives each have
 * their own file: child-process (spawn, reap, kill), stdin-queue (the
 * renderer's input), stderr-log (its output), pool-watch (attach, heartbeat,
 * status, hand-off errors) and supervisor-threads (joining at unload).
 */
#define _GNU_SOURCE
#include "renderer-supervisor.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <obs-data.h>
#include <util/bmem.h>

#include "child-process.h"
#include "log-limiter.h"
#include "plugin-log.h"
#include "pool-watch.h"
#include "safe-text.h"
#include "stderr-log.h"
#include "stdin-queue.h"
#include "supervisor-threads.h"

#define NS_PER_MS 1000000ull
#define NS_PER_S 1000000000ull

#define POLL_INTERVAL_MS 100
#define RESTART_DELAY_FIRST_NS (250 * NS_PER_MS)
#define RESTART_DELAY_MAX_NS (16 * NS_PER_S)
/* A renderer that ran this long before failing was healthy: backoff resets. */
#define HEALTHY_RUN_NS (10 * NS_PER_S)
/* After stdin is closed, how long the renderer gets to exit by itself. */
#define EXIT_GRACE_NS (500 * NS_PER_MS)
/* After SIGKILL, how long we wait to reap it (a process stuck in the kernel
 * may take longer; it is then left, and logged, rather than hang the thread). */
#define KILL_REAP_LIMIT_NS (2 * NS_PER_S)
/* Settings too long to send: reported at once, then at most every 10 s. */
#define REJECTED_REPORT_BURST 1
#define REJECTED_REPORTS_PER_S 0.1
/* Source names are the user's text: escaped once, and this long at most. */
#define SOURCE_NAME_LOG_SIZE 256

/* The renderer being supervised: what the supervisor thread knows of it. */
struct renderer_run {
	struct child_process child;
	struct frame_pool *pool; /* its pool; one reference */
	uint64_t started_ns;
	struct pool_watch watch;
	struct stdin_queue input;
	uint64_t sent_settings_version;
	uint64_t sent_active_version;
	uint64_t sent_obs_version;
	uint64_t sent_speech_version;
	bool input_blocked_logged;
};

struct renderer_supervisor {
	/* Two: the source's (dropped by stop) and the thread's (dropped when it ends). */
	atomic_int refs;
	char *name; /* escaped for the log */
	char *renderer_path;
	int wake_fd; /* eventfd: requests from OBS's threads wake the poll */

	/* Guarded by mutex, which is only ever held to copy these (no I/O). */
	pthread_mutex_t mutex;
	char *settings_line; /* the newest line that fits; NULL if none did yet */
	uint64_t settings_version;
	char *obs_line; /* the newest {"obs":...} line; NULL if none yet */
	uint64_t obs_version;
	char *speech_line; /* the newest {"speech":...} line (hotkeys); NULL if none yet */
	uint64_t speech_version;
	uint32_t want_width;
	uint32_t want_height;
	bool stopping;
	bool settings_rejected;          /* the newest settings were too long: not sent */
	size_t rejected_length;          /* of the last one rejected */
	uint64_t rejected_count;         /* how many were rejected, ever */
	struct frame_pool *current_pool; /* one reference, owned by this field */
	char summary[256];

	/* show/hide: lock-free. */
	atomic_bool active;
	atomic_uint_fast64_t active_version;

	/* Only the supervisor thread touches these. */
	struct renderer_run run;
	uint64_t restart_delay_ns;
	uint64_t next_start_ns;
	uint64_t rejected_reported;
	struct log_limiter rejected_reports;
	struct stderr_log output; /* its limiter outlives each renderer */
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

static void wake(struct renderer_supervisor *sup)
{
	const uint64_t one = 1;
	/* A full counter already means "wake up": the result does not matter. */
	ssize_t ignored = write(sup->wake_fd, &one, sizeof(one));
	(void)ignored;
}

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

/* ---- the renderer's stdin: one JSON object per line ---- */

char *renderer_supervisor_json_line(obs_data_t *data)
{
	/* OBS 29's obs_data_get_json is compact; any raw newline could only be
	 * whitespace between tokens (inside strings it is escaped): safe to flatten. */
	const char *json = obs_data_get_json(data);
	const size_t len = json ? strlen(json) : 0;
	char *line = bmalloc(len + 2);
	memcpy(line, json ? json : "", len);
	for (size_t i = 0; i < len; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = ' ';
	line[len] = '\n';
	line[len + 1] = '\0';
	return line;
}

/* Only ever from the supervisor thread: {"active":true} or {"active":false}. */
static char *active_line(bool active)
{
	obs_data_t *data = obs_data_create();
	obs_data_set_bool(data, "active", active);
	char *line = renderer_supervisor_json_line(data);
	obs_data_release(data);
	return line;
}

/* Settings that were too long are logged here, not on the OBS thread that
 * made them: at once, then at most every 10 s with a count. */
static void report_rejected_settings(struct renderer_supervisor *sup, uint64_t now)
{
	pthread_mutex_lock(&sup->mutex);
	const uint64_t count = sup->rejected_count;
	const size_t length = sup->rejected_length;
	pthread_mutex_unlock(&sup->mutex);
	if (count == sup->rejected_reported || !log_limiter_allow(&sup->rejected_reports, now))
		return;
	const uint64_t new_ones = count - sup->rejected_reported;
	source_log(LOG_WARNING, sup->name,
		   "settings of %zu bytes are longer than the %d bytes the shim sends: not sent, the renderer keeps "
		   "its previous settings (%llu such update%s since the last report; shorten the server, stream ID or "
		   "file paths)",
		   length, RENDERER_SETTINGS_LINE_MAX, (unsigned long long)new_ones, new_ones == 1 ? "" : "s");
	sup->rejected_reported = count;
}

/* Queues a copy of *line (guarded by the mutex) if its version was not sent yet. */
static void queue_newest(struct renderer_supervisor *sup, enum stdin_kind kind, char *const *line,
			 const uint64_t *version, uint64_t *sent)
{
	char *copy = NULL;
	pthread_mutex_lock(&sup->mutex);
	if (*version != *sent && *line) {
		copy = strdup(*line);
		*sent = *version;
	}
	pthread_mutex_unlock(&sup->mutex);
	if (copy)
		stdin_queue_put(&sup->run.input, kind, copy);
	free(copy);
}

/* Hands the input queue the newest settings and active state it has not had. */
static void queue_new_input(struct renderer_supervisor *sup)
{
	struct renderer_run *run = &sup->run;
	char *settings = NULL;
	pthread_mutex_lock(&sup->mutex);
	if (sup->settings_version != run->sent_settings_version && sup->settings_line) {
		settings = strdup(sup->settings_line);
		run->sent_settings_version = sup->settings_version;
	}
	pthread_mutex_unlock(&sup->mutex);
	if (settings)
		stdin_queue_put(&run->input, STDIN_KIND_SETTINGS, settings);
	free(settings);

	queue_newest(sup, STDIN_KIND_OBS, &sup->obs_line, &sup->obs_version, &run->sent_obs_version);
	queue_newest(sup, STDIN_KIND_SPEECH, &sup->speech_line, &sup->speech_version, &run->sent_speech_version);

	const uint64_t active_version = atomic_load(&sup->active_version);
	if (active_version != run->sent_active_version) {
		char *line = active_line(atomic_load(&sup->active));
		stdin_queue_put(&run->input, STDIN_KIND_ACTIVE, line);
		bfree(line);
		run->sent_active_version = active_version;
	}
}

static void write_input(struct renderer_supervisor *sup)
{
	struct renderer_run *run = &sup->run;
	queue_new_input(sup);
	switch (stdin_queue_flush(&run->input, run->child.stdin_fd)) {
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

static bool start_renderer(struct renderer_supervisor *sup, uint32_t width, uint32_t height)
{
	struct renderer_run *run = &sup->run;
	char why[256];
	const uint64_t now = now_ns();

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
	/* A new renderer knows nothing yet: it gets the settings, then the active state. */
	stdin_queue_clear(&run->input);
	run->sent_settings_version = run->sent_active_version = run->sent_obs_version = 0;
	run->sent_speech_version = 0;
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
	pool_watch_report_handoff_errors(&run->watch, now_ns(), true);
	child_process_forget(&run->child);
	stdin_queue_clear(&run->input);
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
static void stop_renderer(struct renderer_supervisor *sup, const char *reason)
{
	struct child_process *child = &sup->run.child;
	if (!child->pid)
		return;
	child_process_close_stdin(child);
	const uint64_t deadline = now_ns() + EXIT_GRACE_NS;
	char why[128] = "";
	bool exited = false;
	while (!(exited = child_process_reap(child, why, sizeof(why))) && now_ns() < deadline) {
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
static void supervise_renderer(struct renderer_supervisor *sup, uint32_t want_width, uint32_t want_height)
{
	struct renderer_run *run = &sup->run;
	const uint64_t now = now_ns();
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
		stop_renderer(sup, "the size changed");
		sup->next_start_ns = now;
		return;
	}
	watch_status(sup);
	write_input(sup);
}

static void wait_for_events(struct renderer_supervisor *sup)
{
	struct child_process *child = &sup->run.child;
	struct pollfd fds[3];
	nfds_t count = 0;
	fds[count++] = (struct pollfd){.fd = sup->wake_fd, .events = POLLIN};
	if (child->pid && child->stderr_fd >= 0)
		fds[count++] = (struct pollfd){.fd = child->stderr_fd, .events = POLLIN};
	if (child->pid && child->stdin_fd >= 0 && stdin_queue_has_lines(&sup->run.input))
		fds[count++] = (struct pollfd){.fd = child->stdin_fd, .events = POLLOUT};

	int timeout_ms = POLL_INTERVAL_MS;
	if (!child->pid) {
		const uint64_t now = now_ns();
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

/* ---- the supervisor's own life ---- */

static void free_supervisor(struct renderer_supervisor *sup)
{
	frame_pool_unref(sup->current_pool);
	stdin_queue_clear(&sup->run.input);
	if (sup->wake_fd >= 0)
		close(sup->wake_fd);
	pthread_mutex_destroy(&sup->mutex);
	free(sup->settings_line);
	free(sup->obs_line);
	free(sup->speech_line);
	free(sup->renderer_path);
	free(sup->name);
	free(sup);
}

static void release_supervisor(struct renderer_supervisor *sup)
{
	if (atomic_fetch_sub_explicit(&sup->refs, 1, memory_order_acq_rel) == 1)
		free_supervisor(sup);
}

static void *supervisor_thread(void *data)
{
	struct renderer_supervisor *sup = data;
	pthread_setname_np(pthread_self(), "comment-bar-sup");
	/* Writing to a dead renderer's stdin must give EPIPE here, not kill OBS. */
	sigset_t pipe_set;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);

	for (;;) {
		pthread_mutex_lock(&sup->mutex);
		const bool stopping = sup->stopping;
		const uint32_t want_width = sup->want_width, want_height = sup->want_height;
		pthread_mutex_unlock(&sup->mutex);
		if (stopping)
			break;

		report_rejected_settings(sup, now_ns());
		if (sup->run.child.pid)
			supervise_renderer(sup, want_width, want_height);
		if (!sup->run.child.pid && now_ns() >= sup->next_start_ns && start_renderer(sup, want_width, want_height))
			write_input(sup);
		wait_for_events(sup);
	}
	stop_renderer(sup, "the source was removed");
	stderr_log_report_left_out(&sup->output);
	release_supervisor(sup);
	return NULL;
}

/* ---- the API for OBS's threads ---- */

static char *escaped_name(const char *name)
{
	char text[SOURCE_NAME_LOG_SIZE];
	safe_text_escape_string(text, sizeof(text), name ? name : "");
	return strdup(text);
}

struct renderer_supervisor *renderer_supervisor_start(const char *name, const char *renderer_path, uint32_t width,
						      uint32_t height, const char *settings_line, bool active)
{
	struct renderer_supervisor *sup = calloc(1, sizeof(*sup));
	if (!sup)
		return NULL;
	sup->wake_fd = -1;
	sup->name = escaped_name(name);
	sup->renderer_path = strdup(renderer_path);
	const size_t settings_length = strlen(settings_line);
	if (settings_length <= RENDERER_SETTINGS_LINE_MAX) {
		sup->settings_line = strdup(settings_line);
		sup->settings_version = 1;
	} else {
		sup->settings_rejected = true;
		sup->rejected_length = settings_length;
		sup->rejected_count = 1;
	}
	sup->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!sup->name || !sup->renderer_path || (!sup->settings_line && !sup->settings_rejected) ||
	    sup->wake_fd < 0 || pthread_mutex_init(&sup->mutex, NULL) != 0)
		goto fail;
	atomic_init(&sup->refs, 2);
	sup->want_width = width;
	sup->want_height = height;
	sup->restart_delay_ns = RESTART_DELAY_FIRST_NS;
	child_process_init(&sup->run.child);
	stdin_queue_init(&sup->run.input);
	const uint64_t now = now_ns();
	stderr_log_init(&sup->output, sup->name, now);
	log_limiter_init(&sup->rejected_reports, REJECTED_REPORT_BURST, REJECTED_REPORTS_PER_S, now);
	atomic_init(&sup->active, active);
	atomic_init(&sup->active_version, 1);
	snprintf(sup->summary, sizeof(sup->summary), "not started yet");

	if (!supervisor_threads_start(supervisor_thread, sup)) {
		pthread_mutex_destroy(&sup->mutex);
		goto fail;
	}
	return sup;

fail:;
	char shown[SOURCE_NAME_LOG_SIZE];
	safe_text_escape_string(shown, sizeof(shown), name);
	source_log(LOG_ERROR, shown, "cannot start the renderer supervisor");
	if (sup->wake_fd >= 0)
		close(sup->wake_fd);
	free(sup->name);
	free(sup->renderer_path);
	free(sup->settings_line);
	free(sup->obs_line);
	free(sup->speech_line);
	free(sup);
	return NULL;
}

void renderer_supervisor_stop(struct renderer_supervisor *sup)
{
	if (!sup)
		return;
	pthread_mutex_lock(&sup->mutex);
	sup->stopping = true;
	pthread_mutex_unlock(&sup->mutex);
	wake(sup);
	release_supervisor(sup);
	supervisor_threads_join_ended();
}

bool renderer_supervisor_wait_all(unsigned timeout_ms)
{
	const unsigned still_running = supervisor_threads_wait_all(timeout_ms);
	if (still_running)
		plugin_log(LOG_ERROR, "%u renderer supervisor%s still stopping after %u ms; unloading anyway",
			   still_running, still_running == 1 ? " is" : "s are", timeout_ms);
	return still_running == 0;
}

bool renderer_supervisor_set_settings(struct renderer_supervisor *sup, const char *settings_line, uint32_t width,
				      uint32_t height)
{
	const size_t length = strlen(settings_line);
	if (length > RENDERER_SETTINGS_LINE_MAX) {
		/* Nothing changes, the size included; the supervisor thread logs it. */
		pthread_mutex_lock(&sup->mutex);
		sup->settings_rejected = true;
		sup->rejected_length = length;
		sup->rejected_count++;
		pthread_mutex_unlock(&sup->mutex);
		wake(sup);
		return false;
	}
	char *copy = strdup(settings_line);
	if (!copy)
		return false;
	pthread_mutex_lock(&sup->mutex);
	sup->settings_rejected = false;
	/* OBS calls update for unchanged settings too; the renderer needs no repeat. */
	const bool changed = !sup->settings_line || strcmp(sup->settings_line, copy) != 0;
	char *old = changed ? sup->settings_line : copy;
	if (changed) {
		sup->settings_line = copy;
		sup->settings_version++;
	}
	sup->want_width = width;
	sup->want_height = height;
	pthread_mutex_unlock(&sup->mutex);
	free(old);
	if (changed)
		wake(sup);
	return true;
}

void renderer_supervisor_set_speech_state(struct renderer_supervisor *sup, const char *speech_line)
{
	char *copy = strdup(speech_line);
	if (!copy)
		return;
	pthread_mutex_lock(&sup->mutex);
	char *old = sup->speech_line;
	sup->speech_line = copy;
	sup->speech_version++;
	pthread_mutex_unlock(&sup->mutex);
	free(old);
	wake(sup);
}

void renderer_supervisor_set_obs_state(struct renderer_supervisor *sup, const char *obs_line)
{
	char *copy = strdup(obs_line);
	if (!copy)
		return;
	pthread_mutex_lock(&sup->mutex);
	const bool changed = !sup->obs_line || strcmp(sup->obs_line, copy) != 0;
	char *old = changed ? sup->obs_line : copy;
	if (changed) {
		sup->obs_line = copy;
		sup->obs_version++;
	}
	pthread_mutex_unlock(&sup->mutex);
	free(old);
	if (changed)
		wake(sup);
}

void renderer_supervisor_set_active(struct renderer_supervisor *sup, bool active)
{
	atomic_store(&sup->active, active);
	atomic_fetch_add(&sup->active_version, 1);
	wake(sup);
}

bool renderer_supervisor_adopt_pool(struct renderer_supervisor *sup, struct frame_pool **pool)
{
	if (pthread_mutex_trylock(&sup->mutex) != 0)
		return false;
	if (sup->current_pool == *pool) {
		pthread_mutex_unlock(&sup->mutex);
		return false;
	}
	struct frame_pool *old = *pool;
	*pool = frame_pool_ref(sup->current_pool);
	pthread_mutex_unlock(&sup->mutex);
	frame_pool_unref(old);
	return true;
}

void renderer_supervisor_describe(struct renderer_supervisor *sup, char *out, size_t out_size)
{
	pthread_mutex_lock(&sup->mutex);
	if (sup->settings_rejected)
		snprintf(out, out_size,
			 "%s. The newest settings were not sent: %zu bytes, more than %d (shorten the server, stream ID "
			 "or file paths)",
			 sup->summary, sup->rejected_length, RENDERER_SETTINGS_LINE_MAX);
	else
		snprintf(out, out_size, "%s", sup->summary);
	pthread_mutex_unlock(&sup->mutex);
}
