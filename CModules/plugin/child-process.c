// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "child-process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Fds we hand to posix_spawn are first moved at or above this, so no dup2 in
 * the child can be a no-op that leaves close-on-exec set or clobbers another. */
#define SPAWN_FD_FLOOR 10

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

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

void child_process_init(struct child_process *child)
{
	child->pid = 0;
	child->stdin_fd = child->stderr_fd = -1;
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

static pid_t spawn(const char *path, int child_stdin, int child_stderr, int child_pool, int *spawn_error)
{
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
	char *argv[] = {(char *)path, "serve", "--pool-fd", pool_fd_text, NULL};
	pid_t pid = 0;
	*spawn_error = posix_spawn(&pid, path, &actions, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	posix_spawnattr_destroy(&attr);
	return *spawn_error ? 0 : pid;
}

bool child_process_spawn(struct child_process *child, const char *path, int pool_fd, char *why, size_t why_size)
{
	int stdin_pipe[2] = {-1, -1}, stderr_pipe[2] = {-1, -1};
	int child_stdin = -1, child_stderr = -1, child_pool = -1;
	bool ok = false;
	if (pipe2(stdin_pipe, O_CLOEXEC) != 0 || pipe2(stderr_pipe, O_CLOEXEC) != 0) {
		snprintf(why, why_size, "pipe: %s", strerror(errno));
		goto done;
	}
	child_stdin = dup_above_floor(stdin_pipe[0]);
	child_stderr = dup_above_floor(stderr_pipe[1]);
	child_pool = dup_above_floor(pool_fd);
	if (child_stdin < 0 || child_stderr < 0 || child_pool < 0) {
		snprintf(why, why_size, "fcntl(F_DUPFD_CLOEXEC): %s", strerror(errno));
		goto done;
	}
	close_fd(&stdin_pipe[0]);
	close_fd(&stderr_pipe[1]);

	int spawn_error = 0;
	const pid_t pid = spawn(path, child_stdin, child_stderr, child_pool, &spawn_error);
	if (!pid) {
		snprintf(why, why_size, "%s", strerror(spawn_error));
		goto done;
	}
	/* Never blocking: a renderer that stops reading cannot stop our thread. */
	fcntl(stdin_pipe[1], F_SETFL, O_NONBLOCK);
	fcntl(stderr_pipe[0], F_SETFL, O_NONBLOCK);
	child->pid = pid;
	child->stdin_fd = stdin_pipe[1];
	child->stderr_fd = stderr_pipe[0];
	stdin_pipe[1] = stderr_pipe[0] = -1;
	ok = true;

done:
	close_fd(&stdin_pipe[0]);
	close_fd(&stdin_pipe[1]);
	close_fd(&stderr_pipe[0]);
	close_fd(&stderr_pipe[1]);
	close_fd(&child_stdin);
	close_fd(&child_stderr);
	close_fd(&child_pool);
	return ok;
}

bool child_process_reap(struct child_process *child, char *why, size_t why_size)
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

bool child_process_kill(struct child_process *child, uint64_t limit_ns)
{
	kill(child->pid, SIGKILL);
	const uint64_t deadline = now_ns() + limit_ns;
	for (;;) {
		const pid_t r = waitpid(child->pid, NULL, WNOHANG);
		if (r == child->pid || (r < 0 && errno != EINTR))
			return true; /* reaped, or not ours to reap any more (ECHILD) */
		if (now_ns() >= deadline)
			return false;
		poll(NULL, 0, 10); /* 10 ms */
	}
}

void child_process_close_stdin(struct child_process *child)
{
	close_fd(&child->stdin_fd);
}

void child_process_forget(struct child_process *child)
{
	close_fd(&child->stdin_fd);
	close_fd(&child->stderr_fd);
	child->pid = 0;
}
