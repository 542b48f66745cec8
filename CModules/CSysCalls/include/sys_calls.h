// SPDX-License-Identifier: GPL-2.0-or-later
/* sys_calls.h: the Linux calls the renderer's Swift side needs that Glibc's Swift module does
 * not show (they need _GNU_SOURCE): the overlay's pool, and the child processes of
 * CommentBarSupport's ChildProcess (the overlay helper, the speech engines). */
#ifndef COMMENTBAR_SYS_CALLS_H
#define COMMENTBAR_SYS_CALLS_H

#include <spawn.h>
#include <sys/types.h>

/* memfd_create(name, 0): inheritable, so the helper programs can be given it; -1 and errno. */
int cb_sys_memfd(const char *name);

/* pipe2(fds, O_CLOEXEC): neither end leaks into another child; -1 and errno. */
int cb_sys_pipe_cloexec(int fds[2]);

/* posix_spawn_file_actions_addclosefrom_np(actions, lowest): the child closes every descriptor
 * from `lowest` up, whatever the parent left inheritable; an error number or 0. */
int cb_sys_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/* Resource limits for the process `pid` (prlimit), each only when above 0: its address space in
 * bytes (RLIMIT_AS), its CPU time in seconds (RLIMIT_CPU: SIGXCPU then, SIGKILL a second later)
 * and its open descriptors (RLIMIT_NOFILE). Soft and hard limits alike, so the child cannot
 * raise them again. 0, or -1 and errno. */
int cb_sys_limit_process(pid_t pid, unsigned long long address_space_bytes, unsigned long long cpu_seconds,
			 unsigned long long open_files);

#endif
