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

#include <util/base.h>

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
/* The renderer writes a heartbeat every ~200 ms even when idle. */
#define HEARTBEAT_STALE_NS (3 * NS_PER_S)
/* Time allowed for the first heartbeat: a cold fontconfig cache is slow. */
#define FIRST_HEARTBEAT_GRACE_NS (10 * NS_PER_S)
#define RESTART_DELAY_FIRST_NS (250 * NS_PER_MS)
#define RESTART_DELAY_MAX_NS (16 * NS_PER_S)
/* A renderer that ran this long before failing was healthy: backoff resets. */
#define HEALTHY_RUN_NS (10 * NS_PER_S)
/* After stdin is closed, how long the renderer gets to exit by itself. */
#define EXIT_GRACE_NS (500 * NS_PER_MS)

#define STDERR_LINE_MAX 1024
#define STDIN_QUEUE_MAX 65536

struct child_process {
	pid_t pid; /* 0: no child */
	int stdin_fd;
	int stderr_fd;
	struct frame_pool *pool;
	uint64_t started_ns;
	uint64_t last_alive_ns;
	uint64_t last_heartbeat;
	bool heartbeat_seen;

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
	char *name;
	char *renderer_path;
	pthread_t thread;
	int wake_fd; /* eventfd: requests from OBS's threads wake the poll */

	/* Guarded by mutex, which is only ever held to copy these (no I/O). */
	pthread_mutex_t mutex;
	char *settings_line;
	uint64_t settings_version;
	uint32_t want_width;
	uint32_t want_height;
	bool stopping;
	struct frame_pool *current_pool; /* one reference, owned by this field */
	char summary[256];
	struct renderer_supervisor_stats stats;

	/* show/hide come from video_tick: lock-free. */
	atomic_bool active;
	atomic_uint_fast64_t active_version;

	/* Only the supervisor thread touches these. */
	struct child_process child;
	uint64_t restart_delay_ns;
	uint64_t next_start_ns;
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

static void emit_stderr_line(struct child_process *child, bool truncated)
{
	child->line[child->line_len] = '\0';
	for (size_t i = 0; i < child->line_len; i++) {
		const unsigned char c = (unsigned char)child->line[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			child->line[i] = '?';
	}
	blog(LOG_INFO, LOG_PREFIX "renderer: %s%s", child->line, truncated ? " [line cut]" : "");
	child->line_len = 0;
}

static void read_stderr(struct child_process *child)
{
	char chunk[4096];
	while (child->stderr_fd >= 0) {
		const ssize_t n = read(child->stderr_fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0 || errno != EAGAIN) { /* EOF: every writer closed it */
				if (child->line_len)
					emit_stderr_line(child, false);
				close(child->stderr_fd);
				child->stderr_fd = -1;
			}
			return;
		}
		for (ssize_t i = 0; i < n; i++) {
			if (chunk[i] == '\n') {
				emit_stderr_line(child, false);
			} else if (child->line_len == STDERR_LINE_MAX) {
				emit_stderr_line(child, true);
				child->line[child->line_len++] = chunk[i];
			} else {
				child->line[child->line_len++] = chunk[i];
			}
		}
	}
}

/* ---- the renderer's stdin: one JSON object per line, never blocking ---- */

static void queue_pending_lines(struct renderer_supervisor *sup)
{
	struct child_process *child = &sup->child;
	if (child->stdin_fd < 0 || child->queue_len != 0)
		return; /* while the pipe is backed up, the newest state waits here */

	pthread_mutex_lock(&sup->mutex);
	if (sup->settings_version != child->sent_settings_version && sup->settings_line) {
		const size_t len = strlen(sup->settings_line);
		if (len < sizeof(child->queue) / 2) {
			memcpy(child->queue, sup->settings_line, len);
			child->queue_len = len;
		} else {
			blog(LOG_WARNING, LOG_PREFIX "'%s': settings of %zu bytes are too large to send; dropped", sup->name,
			     len);
		}
		child->sent_settings_version = sup->settings_version;
	}
	pthread_mutex_unlock(&sup->mutex);

	const uint64_t active_version = atomic_load(&sup->active_version);
	if (active_version != child->sent_active_version) {
		const char *line = atomic_load(&sup->active) ? "{\"active\":true}\n" : "{\"active\":false}\n";
		const size_t len = strlen(line);
		memcpy(child->queue + child->queue_len, line, len);
		child->queue_len += len;
		child->sent_active_version = active_version;
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

	fcntl(stdin_pipe[1], F_SETFL, O_NONBLOCK);
	fcntl(stderr_pipe[0], F_SETFL, O_NONBLOCK);
	memset(child, 0, sizeof(*child));
	child->pid = pid;
	child->stdin_fd = stdin_pipe[1];
	child->stderr_fd = stderr_pipe[0];
	child->pool = pool;
	child->started_ns = child->last_alive_ns = now;
	publish_pool(sup, pool);

	pthread_mutex_lock(&sup->mutex);
	sup->stats.spawns++;
	sup->stats.child_pid = pid;
	pthread_mutex_unlock(&sup->mutex);
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

/* Releases what the supervisor holds of a child that has been reaped. */
static void forget_child(struct renderer_supervisor *sup)
{
	struct child_process *child = &sup->child;
	read_stderr(child); /* whatever it said last */
	if (child->line_len)
		emit_stderr_line(child, false);
	close_fd(&child->stdin_fd);
	close_fd(&child->stderr_fd);
	/* The published pool stays: OBS keeps showing its last frame. */
	frame_pool_unref(child->pool);
	child->pool = NULL;
	child->pid = 0;
	pthread_mutex_lock(&sup->mutex);
	sup->stats.child_pid = 0;
	pthread_mutex_unlock(&sup->mutex);
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

static void kill_and_reap(struct child_process *child)
{
	kill(child->pid, SIGKILL);
	/* Blocking is fine here: this is the supervisor's own thread, and a
	 * SIGKILLed process goes away promptly. */
	while (waitpid(child->pid, NULL, 0) < 0 && errno == EINTR) {
	}
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
			read_stderr(child);
	}
	if (exited) {
		blog(LOG_INFO, LOG_PREFIX "'%s': renderer pid %d %s (%s)", sup->name, (int)child->pid, why, reason);
	} else {
		blog(LOG_WARNING, LOG_PREFIX "'%s': renderer pid %d did not exit within %.1f s of its input closing; killed (%s)",
		     sup->name, (int)child->pid, (double)EXIT_GRACE_NS / 1e9, reason);
		kill_and_reap(child);
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
	blog(LOG_INFO, LOG_PREFIX "'%s': renderer status: %s", sup->name, shown);
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
		pthread_mutex_lock(&sup->mutex);
		sup->stats.restarts_after_failure++;
		pthread_mutex_unlock(&sup->mutex);
		return;
	}
	if (heartbeat_is_stale(child, now)) {
		const int pid = child->pid;
		const double silent = (double)(now - child->last_alive_ns) / 1e9;
		kill_and_reap(child);
		forget_child(sup);
		char what[160];
		snprintf(what, sizeof(what), "pid %d gave no heartbeat for %.1f s and was killed", pid, silent);
		schedule_restart(sup, now, what);
		pthread_mutex_lock(&sup->mutex);
		sup->stats.restarts_after_failure++;
		pthread_mutex_unlock(&sup->mutex);
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
			read_stderr(child);
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

		if (sup->child.pid)
			supervise_child(sup, want_width, want_height);
		if (!sup->child.pid && now_ns() >= sup->next_start_ns && start_child(sup, want_width, want_height)) {
			queue_pending_lines(sup);
			flush_stdin(sup);
		}
		wait_for_events(sup);
	}
	stop_child(sup, "the source was removed");
	return NULL;
}

/* ---- the API for OBS's threads ---- */

struct renderer_supervisor *renderer_supervisor_start(const char *name, const char *renderer_path, uint32_t width,
						      uint32_t height, const char *settings_line, bool active)
{
	struct renderer_supervisor *sup = calloc(1, sizeof(*sup));
	if (!sup)
		return NULL;
	sup->name = strdup(name ? name : "");
	sup->renderer_path = strdup(renderer_path);
	sup->settings_line = strdup(settings_line);
	sup->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!sup->name || !sup->renderer_path || !sup->settings_line || sup->wake_fd < 0)
		goto fail;
	sup->settings_version = 1;
	sup->want_width = width;
	sup->want_height = height;
	sup->restart_delay_ns = RESTART_DELAY_FIRST_NS;
	sup->child.stdin_fd = sup->child.stderr_fd = -1;
	atomic_init(&sup->active, active);
	atomic_init(&sup->active_version, 1);
	snprintf(sup->summary, sizeof(sup->summary), "not started yet");
	pthread_mutex_init(&sup->mutex, NULL);
	if (pthread_create(&sup->thread, NULL, supervisor_thread, sup) != 0) {
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
	pthread_join(sup->thread, NULL);

	frame_pool_unref(sup->current_pool);
	close(sup->wake_fd);
	pthread_mutex_destroy(&sup->mutex);
	free(sup->settings_line);
	free(sup->renderer_path);
	free(sup->name);
	free(sup);
}

void renderer_supervisor_set_settings(struct renderer_supervisor *sup, const char *settings_line, uint32_t width,
				      uint32_t height)
{
	char *copy = strdup(settings_line);
	if (!copy)
		return;
	pthread_mutex_lock(&sup->mutex);
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
	snprintf(out, out_size, "%s", sup->summary);
	pthread_mutex_unlock(&sup->mutex);
}

void renderer_supervisor_get_stats(struct renderer_supervisor *sup, struct renderer_supervisor_stats *stats)
{
	pthread_mutex_lock(&sup->mutex);
	*stats = sup->stats;
	pthread_mutex_unlock(&sup->mutex);
}
