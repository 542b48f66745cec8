// SPDX-License-Identifier: GPL-2.0-or-later
/* sys_calls.c: see sys_calls.h. */
#define _GNU_SOURCE
#include "sys_calls.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

int cb_sys_memfd(const char *name)
{
	return memfd_create(name, 0);
}

int cb_sys_pipe_cloexec(int fds[2])
{
	return pipe2(fds, O_CLOEXEC);
}

int cb_sys_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest)
{
	return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

static int limit(pid_t pid, int resource, unsigned long long soft, unsigned long long hard)
{
	const struct rlimit value = {.rlim_cur = (rlim_t)soft, .rlim_max = (rlim_t)hard};
	return prlimit(pid, resource, &value, NULL);
}

int cb_sys_limit_process(pid_t pid, unsigned long long address_space_bytes, unsigned long long cpu_seconds,
			 unsigned long long open_files)
{
	if (address_space_bytes > 0 && limit(pid, RLIMIT_AS, address_space_bytes, address_space_bytes) != 0)
		return -1;
	if (cpu_seconds > 0 && limit(pid, RLIMIT_CPU, cpu_seconds, cpu_seconds + 1) != 0)
		return -1;
	if (open_files > 0 && limit(pid, RLIMIT_NOFILE, open_files, open_files) != 0)
		return -1;
	return 0;
}
