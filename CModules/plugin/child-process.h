// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * child-process: the `commentbar serve` process: started with posix_spawn,
 * reaped, killed. It reports what happened; what to do about it is the
 * supervisor's business. No libobs, no logging.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The pool fd the renderer is told about (`serve --pool-fd 3`). */
#define CHILD_POOL_FD 3

struct child_process {
	pid_t pid;     /* 0: no child */
	int stdin_fd;  /* ours: the write end of its stdin, non-blocking */
	int stderr_fd; /* ours: the read end of its stdout+stderr, non-blocking */
};

/* A child_process with no process and no fds. */
void child_process_init(struct child_process *child);
/* Starts `path serve --pool-fd 3` with stdin and stdout+stderr on pipes and
 * pool_fd as fd 3, nothing else of ours, an empty signal mask, the usual
 * signals at their defaults, in its own process group. On failure returns
 * false with why (path not escaped: the caller escapes it for the log). */
bool child_process_spawn(struct child_process *child, const char *path, int pool_fd, char *why, size_t why_size);
/* Never waits. True if the child has ended (and is reaped), with how in why:
 * "exited with status N", "was killed by signal 9 (SIGKILL)", ... */
bool child_process_reap(struct child_process *child, char *why, size_t why_size);
/* SIGKILL, then reap, waiting at most limit_ns. False if it is still not
 * reaped then (stuck in the kernel): it is left rather than hang the caller. */
bool child_process_kill(struct child_process *child, uint64_t limit_ns);
/* The renderer's signal to exit: EOF on its stdin. */
void child_process_close_stdin(struct child_process *child);
/* Closes our fds and forgets the pid (after reaping it). */
void child_process_forget(struct child_process *child);
