// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay_sys.c: see overlay_sys.h. */
#define _GNU_SOURCE
#include "overlay_sys.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

int cb_overlay_memfd(const char *name)
{
	return memfd_create(name, 0);
}

int cb_overlay_pipe_cloexec(int fds[2])
{
	return pipe2(fds, O_CLOEXEC);
}
