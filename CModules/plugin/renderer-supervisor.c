#define _GNU_SOURCE
#include "renderer-supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <obs-data.h>
#include <util/base.h>
#include <util/bmem.h>

extern char **environ;

#define LOG_PREFIX "[comment-bar] "
#define NS_PER_MS 1000000ull
#define NS_PER_S 1000000000ull

/* The pool fd the renderer is told about (`serve --pool-fd 3`). */
#define CHILD_POOL_FD 3
/* Fds we hand to posix_spawn are first moved at or above this, so no dup2 in
 * the child can be a no-op that leaves close-on-exec set or clobbers another. */
#define SPAWN_FD_FLOOR 10

#define POLL_INTERVAL_MS 100
/* The ABI: a heartbeat at least every 250 ms (the renderer beats every 100 ms). */
#define HEARTBEAT_STALE_NS (3 * NS_PER_S)
/* Time allowed for the first heartbeat: a cold fontconfig cache is slow. */
#define FIRST_HEARTBEAT_GRACE_NS (10 * NS_PER_S)
#define RESTART_DELAY_FIRST_NS (250 * NS_PER_MS)
#define RESTART_DELAY_MAX_NS (16 * NS_PER_S)
/* A renderer that ran this long before failing was healthy: backoff resets. */
#define HEALTHY_RUN_NS (10 * NS_PER_S)
/* After stdin is closed, how long the renderer gets to exit by itself. */
#define EXIT_GRACE_NS (500 * NS_PER_MS)
/* After SIGKILL, how long we wait to reap it (a process stuck in the kernel
 * may take longer; it is then left, and logged, rather than hang the thread). */
#define KILL_REAP_LIMIT_NS (2 * NS_PER_S)
/* Repeated warnings (hand-off errors, settings not sent) at most this often. */
#define REPORT_INTERVAL_NS (10 * NS_PER_S)

#define STDERR_LINE_MAX 1024
/* Bytes of stderr read per wake-up, so a flood cannot keep the thread from
 * its other work (heartbeat, stopping). */
#define STDERR_READ_MAX 65536
/* Renderer lines (and status changes) copied into the OBS log: a burst of this
 * many, then this many a second; the rest are counted and the count is logged. */
#define STDERR_LOG_BURST 200
#define STDERR_LOG_PER_S 20
#define STDIN_QUEUE_MAX (2 * RENDERER_SETTINGS_LINE_MAX)

/* Supervisor threads: how many are still running, and the finished ones not
 * joined yet. A thread joins the others that have ended whenever it can
 * without waiting; module unload waits for all of them. */
struct finished_thread {
	pthread_t thread;
	struct finished_thread *next;
};
static pthread_mutex_t threads_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t threads_cond = PTHREAD_COND_INITIALIZER;
static unsigned threads_running;
static struct finished_thread *threads_finished;

struct child_process {
	pid_t pid; /* 0: no child */
	int stdin_fd;
	int stderr_fd;
	struct frame_pool *pool;
	uint64_t started_ns;
	uint64_t last_alive_ns;
	uint64_t last_heartbeat;
	bool heartbeat_seen;
	bool attach_logged;
	uint64_t handoff_errors_reported;
	uint64_t handoff_report_ns;

	uint64_t sent_settings_version;
	uint64_t sent_active_version;
	char queue[STDIN_QUEUE_MAX]; /* bytes not yet accepted by the stdin pipe */
	size_t queue_len;
	size_t queue_sent;
	bool stdin_full_logged;

	char line[STDERR_LINE_MAX + 1];
	size_t line_len;

	bool status_known;
	char status_text[CB_POOL_STATUS_TEXT_SIZE + 32]; /* as last logged: "name: text" */
};

struct renderer_supervisor {
	/* Two: the source's (dropped by stop) and the thread's (dropped when it ends). */
	atomic_int refs;
	char *name;
	char *renderer_path;
	struct finished_thread *record; /* handed to the finished list by the thread */
	int wake_fd;                    /* eventfd: requests from OBS's threads wake the poll */

	/* Guarded by mutex, which is only ever held to copy these (no I/O). */
	pthread_mutex_t mutex;
	char *settings_line; /* the newest line that fits; NULL if none did yet */
	uint64_t settings_version;
	uint32_t want_width;
	uint32_t want_height;
	bool stopping;
	bool settings_rejected;     /* the newest settings were too long: not sent */
	size_t rejected_length;     /* of the last one rejected */
	uint64_t rejected_count;    /* how many were rejected, ever */
	struct frame_pool *current_pool; /* one reference, owned by this field */
	char summary[256];

	/* show/hide: lock-free. */
	atomic_bool active;
	atomic_uint_fast64_t active_version;

	/* Only the supervisor thread touches these. */
	struct child_process child;
	uint64_t restart_delay_ns;
	uint64_t next_start_ns;
	uint64_t rejected_reported;
	uint64_t rejected_report_ns;
	double log_tokens;
	uint64_t log_tokens_ns;
	uint64_t lines_not_logged;
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

static void describe_wait_status(int status, char *out, size_t out_size)
{
	if (WIFEXITED(status)) {
		snprintf(out, out_size, "exited with status %d", WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		const char *abbrev = sigabbrev_np(WTERMSIG(status));
		snprintf(out, out_size, "was killed by signal %d (SIG%s)%s", WTERMSIG(status), abbrev ? abbrev : "?",
			 WCOREDUMP(status) ? ", core dumped" : "");
	} else {
		snprintf(out, out_size, "ended with wait status 0x%x", (unsigned)status);
	}
}

/* ---- the renderer's stderr, copied into the OBS log line by line ---- */

static void report_lines_not_logged(struct renderer_supervisor *sup)
{
	if (!sup->lines_not_logged)
		return;
	blog(LOG_WARNING, LOG_PREFIX "'%s': %llu lines of the renderer's output were not logged (more than %d a second)",
	     sup->name, (unsigned long long)sup->lines_not_logged, STDERR_LOG_PER_S);
	sup->lines_not_logged = 0;
}

/* A token bucket, so a chatty renderer cannot flood the OBS log. */
static bool may_log_line(struct renderer_supervisor *sup)
{
	const uint64_t now = now_ns();
	sup->log_tokens += (double)(now - sup->log_tokens_ns) / 1e9 * STDERR_LOG_PER_S;
	if (sup->log_tokens > STDERR_LOG_BURST)
		sup->log_tokens = STDERR_LOG_BURST;
	sup->log_tokens_ns = now;
	if (sup->log_tokens < 1)
		return false;
	sup->log_tokens -= 1;
	return true;
}

static void emit_stderr_line(struct renderer_supervisor *sup, bool truncated)
{
	struct child_process *child = &sup->child;
	child->line[child->line_len] = '\0';
	child->line_len = 0;
	if (!may_log_line(sup)) {
		sup->lines_not_logged++;
		return;
	}
	report_lines_not_logged(sup);
	frame_pool_make_printable(child->line);
	blog(LOG_INFO, LOG_PREFIX "renderer: %s%s", child->line, truncated ? " [line cut]" : "");
}

static void read_stderr(struct renderer_supervisor *sup)
{
	struct child_process *child = &sup->child;
	char chunk[4096];
	size_t total = 0;
	while (child->stderr_fd >= 0 && total < STDERR_READ_MAX) {
		const ssize_t n = read(child->stderr_fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0 || errno != EAGAIN) { /* EOF: every writer closed it */
				if (child->line_len)
					emit_stderr_line(sup, false);
				close(child->stderr_fd);
				child->stderr_fd = -1;
			}
			return;
		}
		total += (size_t)n;
		for (ssize_t i = 0; i < n; i++) {
			if (chunk[i] == '\n') {
				emit_stderr_line(sup, false);
			} else if (child->line_len == STDERR_LINE_MAX) {
				emit_stderr_line(sup, true);
				child->line[child->line_len++] = chunk[i];
			} else {
				child->line[child->line_len++] = chunk[i];
			}
		}
	}
}

/* ---- the renderer's stdin: one JSON object per line, never blocking ---- */

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
 * made them: at once, then at most every REPORT_INTERVAL_NS with a count. */
static void report_rejected_settings(struct renderer_supervisor *sup, uint64_t now)
{
	pthread_mutex_lock(&sup->mutex);
	const uint64_t count = sup->rejected_count;
	const size_t length = sup->rejected_length;
	pthread_mutex_unlock(&sup->mutex);
	if (count == sup->rejected_reported ||
	    (sup->rejected_report_ns && now - sup->rejected_report_ns < REPORT_INTERVAL_NS))
		return;
	const uint64_t new_ones = count - sup->rejected_reported;
	blog(LOG_WARNING,
	     LOG_PREFIX "'%s': settings of %zu bytes are longer than the %d bytes the shim sends: not sent, "
			"the renderer keeps its previous settings (%llu such update%s since the last report; "
			"shorten the server, stream ID or file paths)",
	     sup->name, length, RENDERER_SETTINGS_LINE_MAX, (unsigned long long)new_ones, new_ones == 1 ? "" : "s");
	sup->rejected_reported = count;
	sup->rejected_report_ns = now;
}

static void queue_pending_lines(struct renderer_supervisor *sup)
{
	struct child_process *child = &sup->child;
	if (child->stdin_fd < 0 || child->queue_len != 0)
		return; /* while the pipe is backed up, the newest state waits here */

	pthread_mutex_lock(&sup->mutex);
	if (sup->settings_version != child->sent_settings_version && sup->settings_line) {
		/* set_settings keeps only lines of at most RENDERER_SETTINGS_LINE_MAX. */
		const size_t len = strlen(sup->settings_line);
		memcpy(child->queue, sup->settings_line, len);
		child->queue_len = len;
		child->sent_settings_version = sup->settings_version;
	}
	pthread_mutex_unlock(&sup->mutex);

	const uint64_t active_version = atomic_load(&sup->active_version);
	if (active_version != child->sent_active_version) {
		char *line = active_line(atomic_load(&sup->active));
		const size_t len = strlen(line);
		if (child->queue_len + len <= sizeof(child->queue)) {
			memcpy(child->queue + child->queue_len, line, len);
			child->queue_len += len;
			child->sent_active_version = active_version;
		}
		bfree(line);
	}
	child->queue_sent = 0;
}

static void flush_stdin(struct renderer_supervisor *sup)
{
	struct child_process *child = &sup->child;
	while (child->stdin_fd >= 0 && child->queue_sent < child->queue_len) {
		const ssize_t n =
			write(child->stdin_fd, child->queue + child->queue_sent, child->queue_len - child->queue_sent);
		if (n > 0) {
			child->queue_sent += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			if (!child->stdin_full_logged)
				blog(LOG_WARNING,
				     LOG_PREFIX "'%s': the renderer is not reading its input; "
						"the newest settings wait until it does",
				     sup->name);
			child->stdin_full_logged = true;
			return;
		}
		/* EPIPE: the renderer is gone; its exit is handled by the reaper.
		 * SIGPIPE is blocked in this thread: take the pending one. */
		if (n < 0 && errno == EPIPE) {
			sigset_t pipe_set;
			sigemptyset(&pipe_set);
			sigaddset(&pipe_set, SIGPIPE);
			const struct timespec zero = {0, 0};
			sigtimedwait(&pipe_set, NULL, &zero);
		}
		child->queue_len = child->queue_sent = 0;
		return;
	}
	if (child->queue_sent == child->queue_len) {
		child->queue_len = child->queue_sent = 0;
		child->stdin_full_logged = false;
	}
}

/* ---- starting, reaping, stopping ---- */

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int dup_above_floor(int fd)
{
	return fcntl(fd, F_DUPFD_CLOEXEC, SPAWN_FD_FLOOR);
}

static void schedule_restart(struct renderer_supervisor *sup, uint64_t now, const char *why)
{
	const uint64_t delay = sup->restart_delay_ns;
	sup->next_start_ns = now + delay;
	sup->restart_delay_ns = delay * 2 > RESTART_DELAY_MAX_NS ? RESTART_DELAY_MAX_NS : delay * 2;
	blog(LOG_WARNING, LOG_PREFIX "'%s': renderer %s; restarting in %.2f s", sup->name, why, (double)delay / 1e9);
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

static bool start_child(struct renderer_supervisor *sup, uint32_t width, uint32_t height)
{
	struct child_process *child = &sup->child;
	char err[256];
	const uint64_t now = now_ns();

	struct frame_pool *pool = frame_pool_create(width, height, err, sizeof(err));
	if (!pool) {
		blog(LOG_ERROR, LOG_PREFIX "'%s': cannot create the frame pool: %s", sup->name, err);
		schedule_restart(sup, now, "has no frame pool");
		return false;
	}

	int stdin_pipe[2] = {-1, -1}, stderr_pipe[2] = {-1, -1};
	int child_stdin = -1, child_stderr = -1, child_pool = -1;
	if (pipe2(stdin_pipe, O_CLOEXEC) != 0 || pipe2(stderr_pipe, O_CLOEXEC) != 0) {
		blog(LOG_ERROR, LOG_PREFIX "'%s': pipe: %s", sup->name, strerror(errno));
		goto fail;
	}
	child_stdin = dup_above_floor(stdin_pipe[0]);
	child_stderr = dup_above_floor(stderr_pipe[1]);
	child_pool = dup_above_floor(pool->fd);
	if (child_stdin < 0 || child_stderr < 0 || child_pool < 0) {
		blog(LOG_ERROR, LOG_PREFIX "'%s': fcntl(F_DUPFD_CLOEXEC): %s", sup->name, strerror(errno));
		goto fail;
	}
	close_fd(&stdin_pipe[0]);
	close_fd(&stderr_pipe[1]);

	posix_spawn_file_actions_t actions;
	posix_spawnattr_t attr;
	posix_spawn_file_actions_init(&actions);
	/* dup2 clears close-on-exec on the copies only: the child gets exactly
	 * stdin, stdout/stderr and the pool, and nothing else of OBS's. */
	posix_spawn_file_actions_adddup2(&actions, child_stdin, STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&actions, child_stderr, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&actions, child_stderr, STDERR_FILENO);
	posix_spawn_file_actions_adddup2(&actions, child_pool, CHILD_POOL_FD);
	posix_spawn_file_actions_addclosefrom_np(&actions, CHILD_POOL_FD + 1);

	posix_spawnattr_init(&attr);
	sigset_t no_signals, default_signals;
	sigemptyset(&no_signals);
	sigemptyset(&default_signals);
	const int reset[] = {SIGPIPE, SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};
	for (size_t i = 0; i < sizeof(reset) / sizeof(reset[0]); i++)
		sigaddset(&default_signals, reset[i]);
	posix_spawnattr_setsigmask(&attr, &no_signals);
	posix_spawnattr_setsigdefault(&attr, &default_signals);
	/* Its own process group: a Ctrl-C to OBS in a terminal reaches OBS only;
	 * the renderer then ends when OBS closes its stdin. */
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);

	char pool_fd_text[16];
	snprintf(pool_fd_text, sizeof(pool_fd_text), "%d", CHILD_POOL_FD);
	char *argv[] = {sup->renderer_path, "serve", "--pool-fd", pool_fd_text, NULL};
	pid_t pid = 0;
	const int spawn_error = posix_spawn(&pid, sup->renderer_path, &actions, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	posix_spawnattr_destroy(&attr);
	close_fd(&child_stdin);
	close_fd(&child_stderr);
	close_fd(&child_pool);
	if (spawn_error != 0) {
		blog(LOG_ERROR, LOG_PREFIX "'%s': cannot start the renderer %s: %s", sup->name, sup->renderer_path,
		     strerror(spawn_error));
		goto fail;
	}

	/* Never blocking: a renderer that stops reading cannot stop this thread. */
	fcntl(stdin_pipe[1], F_SETFL, O_NONBLOCK);
	fcntl(stderr_pipe[0], F_SETFL, O_NONBLOCK);
	memset(child, 0, sizeof(*child));
	child->pid = pid;
	child->stdin_fd = stdin_pipe[1];
	child->stderr_fd = stderr_pipe[0];
	child->pool = pool;
	child->started_ns = child->last_alive_ns = now;
	publish_pool(sup, pool);
	blog(LOG_INFO, LOG_PREFIX "'%s': started renderer pid %d with a %ux%u pool", sup->name, (int)pid, width, height);
	set_summary(sup, "starting (pid %d)", (int)pid);
	return true;

fail:
	close_fd(&stdin_pipe[0]);
	close_fd(&stdin_pipe[1]);
	close_fd(&stderr_pipe[0]);
	close_fd(&stderr_pipe[1]);
	close_fd(&child_stdin);
	close_fd(&child_stderr);
	close_fd(&child_pool);
	frame_pool_unref(pool);
	schedule_restart(sup, now, "could not be started");
	return false;
}

/* The renderer's pid as it wrote it into the pool, once: the ABI's sign that it attached. */
static void watch_attach(struct renderer_supervisor *sup)
{
	struct child_process *child = &sup->child;
	if (child->attach_logged)
		return;
	const uint32_t producer = frame_pool_producer_pid(child->pool);
	if (!producer)
		return;
	child->attach_logged = true;
	if (producer == (uint32_t)child->pid)
		blog(LOG_INFO, LOG_PREFIX "'%s': renderer pid %d attached to its pool (producer_pid %u)", sup->name,
		     (int)child->pid, producer);
	else
		blog(LOG_WARNING, LOG_PREFIX "'%s': renderer pid %d attached to its pool, but wrote producer_pid %u",
		     sup->name, (int)child->pid, producer);
}

/* video_tick counts hand-offs that named no valid slot; they are logged here,
 * with who wrote them: at once, then at most every REPORT_INTERVAL_NS. */
static void report_handoff_errors(struct renderer_supervisor *sup, uint64_t now, bool final)
{
	struct child_process *child = &sup->child;
	const uint64_t total = atomic_load_explicit(&child->pool->handoff_errors, memory_order_relaxed);
	if (total == child->handoff_errors_reported ||
	    (!final && child->handoff_report_ns && now - child->handoff_report_ns < REPORT_INTERVAL_NS))
		return;
	blog(LOG_WARNING,
	     LOG_PREFIX "'%s': renderer pid %d (producer_pid %u) broke the frame hand-off: %llu invalid hand-off%s "
			"since the last report, %llu in all; those frames were not shown",
	     sup->name, (int)child->pid, frame_pool_producer_pid(child->pool),
	     (unsigned long long)(total - child->handoff_errors_reported),
	     total - child->handoff_errors_reported == 1 ? "" : "s", (unsigned long long)total);
	child->handoff_errors_reported = total;
	child->handoff_report_ns = now;
}

/* Releases what the supervisor holds of a child that has been reaped. */
static void forget_child(struct renderer_supervisor *sup)
{
	struct child_process *child = &sup->child;
	read_stderr(sup); /* whatever it said last */
	if (child->line_len)
		emit_stderr_line(sup, false);
	report_lines_not_logged(sup);
	report_handoff_errors(sup, now_ns(), true);
	close_fd(&child->stdin_fd);
	close_fd(&child->stderr_fd);
	/* The published pool stays: OBS keeps showing its last frame. */
	frame_pool_unref(child->pool);
	child->pool = NULL;
	child->pid = 0;
}

/* Returns true if the child has ended; writes how into why. */
static bool reap_if_exited(struct child_process *child, char *why, size_t why_size)
{
	int status = 0;
	const pid_t r = waitpid(child->pid, &status, WNOHANG);
	if (r == 0)
		return false;
	if (r == child->pid)
		describe_wait_status(status, why, why_size);
	else /* ECHILD: someone set SIGCHLD to SIG_IGN and the kernel reaped it */
		snprintf(why, why_size, "ended (status unknown: %s)", strerror(errno));
	return true;
}

/* SIGKILL, then reap. Bounded: a process stuck in the kernel is left (and
 * logged) rather than hang this thread and, with it, module unload. */
static void kill_and_reap(struct renderer_supervisor *sup)
{
	struct child_process *child = &sup->child;
	kill(child->pid, SIGKILL);
	const uint64_t deadline = now_ns() + KILL_REAP_LIMIT_NS;
	for (;;) {
		const pid_t r = waitpid(child->pid, NULL, WNOHANG);
		if (r == child->pid || (r < 0 && errno != EINTR))
			return; /* reaped, or not ours to reap any more (ECHILD) */
		if (now_ns() >= deadline)
			break;
		poll(NULL, 0, 10); /* 10 ms */
	}
	blog(LOG_ERROR, LOG_PREFIX "'%s': renderer pid %d did not end within %.0f s of SIGKILL; left unreaped", sup->name,
	     (int)child->pid, (double)KILL_REAP_LIMIT_NS / 1e9);
}

/* Closes stdin (the renderer's signal to exit), waits briefly, then kills. */
static void stop_child(struct renderer_supervisor *sup, const char *reason)
{
	struct child_process *child = &sup->child;
	if (!child->pid)
		return;
	close_fd(&child->stdin_fd);
	const uint64_t deadline = now_ns() + EXIT_GRACE_NS;
	char why[128] = "";
	bool exited = false;
	while (!(exited = reap_if_exited(child, why, sizeof(why))) && now_ns() < deadline) {
		/* Keep draining stderr so a chatty renderer cannot block on it. */
		struct pollfd p = {.fd = child->stderr_fd, .events = POLLIN};
		if (poll(&p, child->stderr_fd >= 0 ? 1 : 0, 10) > 0)
			read_stderr(sup);
	}
	if (exited) {
		blog(LOG_INFO, LOG_PREFIX "'%s': renderer pid %d %s (%s)", sup->name, (int)child->pid, why, reason);
	} else {
		blog(LOG_WARNING, LOG_PREFIX "'%s': renderer pid %d did not exit within %.1f s of its input closing; killed (%s)",
		     sup->name, (int)child->pid, (double)EXIT_GRACE_NS / 1e9, reason);
		kill_and_reap(sup);
	}
	forget_child(sup);
}

static void watch_status(struct renderer_supervisor *sup)
{
	struct child_process *child = &sup->child;
	uint32_t code;
	char text[CB_POOL_STATUS_TEXT_SIZE];
	if (!frame_pool_read_status(child->pool, &code, text))
		return;
	const char *name = frame_pool_status_name(code);
	/* The text often just repeats the name ("live"); show it only when it says more. */
	const char *detail = strcmp(text, name) == 0 ? "" : text;
	char shown[sizeof(child->status_text)];
	snprintf(shown, sizeof(shown), "%s%s%s", name, detail[0] ? ": " : "", detail);
	if (child->status_known && strcmp(shown, child->status_text) == 0)
		return;
	child->status_known = true;
	memcpy(child->status_text, shown, sizeof(shown));
	/* A renderer flipping its status cannot flood the log either. */
	if (may_log_line(sup)) {
		report_lines_not_logged(sup);
		blog(LOG_INFO, LOG_PREFIX "'%s': renderer status: %s", sup->name, shown);
	} else {
		sup->lines_not_logged++;
	}
	set_summary(sup, "running (pid %d): %s", (int)child->pid, shown);
}

/* Liveness is the heartbeat changing, not its value compared with our clock:
 * a hostile or confused writer cannot fake life by writing a future time. */
static bool heartbeat_is_stale(struct child_process *child, uint64_t now)
{
	const uint64_t heartbeat = frame_pool_heartbeat(child->pool);
	if (heartbeat != child->last_heartbeat) {
		child->last_heartbeat = heartbeat;
		child->last_alive_ns = now;
		child->heartbeat_seen = true;
		return false;
	}
	const uint64_t allowed = child->heartbeat_seen ? HEARTBEAT_STALE_NS : FIRST_HEARTBEAT_GRACE_NS;
	return now - child->last_alive_ns > allowed;
}

static void supervise_child(struct renderer_supervisor *sup, uint32_t want_width, uint32_t want_height)
{
	struct child_process *child = &sup->child;
	const uint64_t now = now_ns();
	char why[160];

	if (reap_if_exited(child, why, sizeof(why))) {
		const uint64_t ran = now - child->started_ns;
		const int pid = child->pid;
		forget_child(sup);
		if (ran >= HEALTHY_RUN_NS)
			sup->restart_delay_ns = RESTART_DELAY_FIRST_NS;
		char what[200];
		snprintf(what, sizeof(what), "pid %d %s after %.1f s", pid, why, (double)ran / 1e9);
		schedule_restart(sup, now, what);
		return;
	}
	watch_attach(sup);
	report_handoff_errors(sup, now, false);
	if (heartbeat_is_stale(child, now)) {
		const int pid = child->pid;
		const double silent = (double)(now - child->last_alive_ns) / 1e9;
		kill_and_reap(sup);
		forget_child(sup);
		char what[160];
		snprintf(what, sizeof(what), "pid %d gave no heartbeat for %.1f s and was killed", pid, silent);
		schedule_restart(sup, now, what);
		return;
	}
	if (child->pool->width != want_width || child->pool->height != want_height) {
		/* A pool's size is fixed: a new size is a new pool and a new renderer.
		 * OBS keeps drawing the old texture until the new frame arrives. */
		stop_child(sup, "the size changed");
		sup->next_start_ns = now;
		return;
	}
	watch_status(sup);
	queue_pending_lines(sup);
	flush_stdin(sup);
}

static void wait_for_events(struct renderer_supervisor *sup)
{
	struct child_process *child = &sup->child;
	struct pollfd fds[3];
	nfds_t count = 0;
	fds[count++] = (struct pollfd){.fd = sup->wake_fd, .events = POLLIN};
	if (child->pid && child->stderr_fd >= 0)
		fds[count++] = (struct pollfd){.fd = child->stderr_fd, .events = POLLIN};
	if (child->pid && child->stdin_fd >= 0 && child->queue_sent < child->queue_len)
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
			read_stderr(sup);
}

/* ---- the supervisor's own life ---- */

static void free_supervisor(struct renderer_supervisor *sup)
{
	frame_pool_unref(sup->current_pool);
	if (sup->wake_fd >= 0)
		close(sup->wake_fd);
	pthread_mutex_destroy(&sup->mutex);
	free(sup->settings_line);
	free(sup->renderer_path);
	free(sup->name);
	free(sup->record);
	free(sup);
}

static void release_supervisor(struct renderer_supervisor *sup)
{
	if (atomic_fetch_sub_explicit(&sup->refs, 1, memory_order_acq_rel) == 1)
		free_supervisor(sup);
}

/* Joins the finished threads that have fully ended; never waits. Needs threads_mutex. */
static void join_ended_threads_locked(void)
{
	struct finished_thread **link = &threads_finished;
	while (*link) {
		struct finished_thread *f = *link;
		if (pthread_tryjoin_np(f->thread, NULL) == 0) {
			*link = f->next;
			free(f);
		} else {
			link = &f->next;
		}
	}
}

static void join_ended_threads(void)
{
	pthread_mutex_lock(&threads_mutex);
	join_ended_threads_locked();
	pthread_mutex_unlock(&threads_mutex);
}

/* The thread's last act: after it, only the return into libc runs. */
static void thread_finished(struct finished_thread *record)
{
	record->thread = pthread_self();
	pthread_mutex_lock(&threads_mutex);
	join_ended_threads_locked();
	record->next = threads_finished;
	threads_finished = record;
	threads_running--;
	pthread_cond_broadcast(&threads_cond);
	pthread_mutex_unlock(&threads_mutex);
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
		if (sup->child.pid)
			supervise_child(sup, want_width, want_height);
		if (!sup->child.pid && now_ns() >= sup->next_start_ns && start_child(sup, want_width, want_height)) {
			queue_pending_lines(sup);
			flush_stdin(sup);
		}
		wait_for_events(sup);
	}
	stop_child(sup, "the source was removed");
	report_lines_not_logged(sup);
	/* The record outlives sup: it goes to the finished list. */
	struct finished_thread *record = sup->record;
	sup->record = NULL;
	release_supervisor(sup);
	thread_finished(record);
	return NULL;
}

/* ---- the API for OBS's threads ---- */

struct renderer_supervisor *renderer_supervisor_start(const char *name, const char *renderer_path, uint32_t width,
						      uint32_t height, const char *settings_line, bool active)
{
	join_ended_threads();
	struct renderer_supervisor *sup = calloc(1, sizeof(*sup));
	if (!sup)
		return NULL;
	sup->wake_fd = -1;
	sup->name = strdup(name ? name : "");
	sup->renderer_path = strdup(renderer_path);
	sup->record = calloc(1, sizeof(*sup->record));
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
	if (!sup->name || !sup->renderer_path || !sup->record || (!sup->settings_line && !sup->settings_rejected) ||
	    sup->wake_fd < 0 || pthread_mutex_init(&sup->mutex, NULL) != 0)
		goto fail;
	atomic_init(&sup->refs, 2);
	sup->want_width = width;
	sup->want_height = height;
	sup->restart_delay_ns = RESTART_DELAY_FIRST_NS;
	sup->child.stdin_fd = sup->child.stderr_fd = -1;
	sup->log_tokens = STDERR_LOG_BURST;
	sup->log_tokens_ns = now_ns();
	atomic_init(&sup->active, active);
	atomic_init(&sup->active_version, 1);
	snprintf(sup->summary, sizeof(sup->summary), "not started yet");

	pthread_mutex_lock(&threads_mutex);
	threads_running++;
	pthread_mutex_unlock(&threads_mutex);
	pthread_t thread;
	if (pthread_create(&thread, NULL, supervisor_thread, sup) != 0) {
		pthread_mutex_lock(&threads_mutex);
		threads_running--;
		pthread_mutex_unlock(&threads_mutex);
		pthread_mutex_destroy(&sup->mutex);
		goto fail;
	}
	return sup;

fail:
	blog(LOG_ERROR, LOG_PREFIX "'%s': cannot start the renderer supervisor", name ? name : "");
	if (sup->wake_fd >= 0)
		close(sup->wake_fd);
	free(sup->name);
	free(sup->renderer_path);
	free(sup->settings_line);
	free(sup->record);
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
	join_ended_threads();
}

bool renderer_supervisor_wait_all(unsigned timeout_ms)
{
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += timeout_ms / 1000;
	deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&threads_mutex);
	while (threads_running > 0 &&
	       pthread_cond_clockwait(&threads_cond, &threads_mutex, CLOCK_MONOTONIC, &deadline) != ETIMEDOUT) {
	}
	const unsigned still_running = threads_running;
	/* Each finished thread has done all but return: joining takes no time.
	 * A second's margin covers a thread preempted right after signalling. */
	deadline.tv_sec++;
	struct finished_thread **link = &threads_finished;
	while (*link) {
		struct finished_thread *f = *link;
		if (pthread_clockjoin_np(f->thread, NULL, CLOCK_MONOTONIC, &deadline) == 0) {
			*link = f->next;
			free(f);
		} else {
			link = &f->next;
		}
	}
	pthread_mutex_unlock(&threads_mutex);
	if (still_running)
		blog(LOG_ERROR, LOG_PREFIX "%u renderer supervisor%s still stopping after %u ms; unloading anyway",
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
