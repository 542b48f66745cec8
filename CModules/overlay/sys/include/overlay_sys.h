// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay_sys.h: the two Linux calls the overlay's Swift side needs that Glibc's Swift module
 * does not show (they need _GNU_SOURCE). */
#ifndef COMMENTBAR_OVERLAY_SYS_H
#define COMMENTBAR_OVERLAY_SYS_H

/* memfd_create(name, 0): inheritable, so the helper programs can be given it; -1 and errno. */
int cb_overlay_memfd(const char *name);

/* pipe2(fds, O_CLOEXEC): neither end leaks into another child; -1 and errno. */
int cb_overlay_pipe_cloexec(int fds[2]);

#endif
