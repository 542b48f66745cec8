// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * newest-line: the newest of a stream of stdin lines that OBS's threads hand the
 * supervisor thread (the settings, OBS's state), with a version that moves each
 * time the line changes. Only the newest matters: a line not sent yet is
 * replaced, never queued, and a line equal to the last one changes nothing
 * (OBS calls update with unchanged settings too).
 *
 * Threads: any thread sets, the supervisor thread takes. The mutex is only ever
 * held to compare and swap pointers or copy the line (no I/O): OBS's threads
 * never wait on the supervisor's work.
 */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct newest_line {
	pthread_mutex_t mutex;
	char *line;       /* NULL until the first set */
	uint64_t version; /* 0 until the first set, then one more per change */
};

/* false when the mutex cannot be made. */
bool newest_line_init(struct newest_line *newest);
void newest_line_free(struct newest_line *newest);

/* Keeps a copy of line when it differs from the newest one. Returns true when
 * it did (the version moved); false when equal, or out of memory. */
bool newest_line_set(struct newest_line *newest, const char *line);

/* The newest line if its version is not *seen: a copy (free() it), *seen
 * moved to its version. NULL when the one seen is the newest (or none yet). */
char *newest_line_take_newer(struct newest_line *newest, uint64_t *seen);
