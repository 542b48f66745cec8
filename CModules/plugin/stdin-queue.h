// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stdin-queue: the renderer's stdin. OBS's threads put the newest line of each channel
 * (renderer-input.h) and never wait on I/O; the supervisor thread writes them without
 * ever blocking. Only the NEWEST line of each channel is kept: a renderer that reads
 * slowly gets the latest settings, not every settings it missed, and a line equal to the
 * channel's last one changes nothing (OBS calls update with unchanged settings too).
 *
 * A line once begun is always finished before any other is begun, so the renderer never
 * sees half a line followed by another. Channels go out in the table's order (settings
 * first: a renderer must know its settings before anything else). A new renderer
 * (stdin_queue_restart) gets each channel's newest line again. No libobs.
 */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "renderer-input.h"

struct stdin_queue {
	/* Any thread puts. The mutex is only ever held to compare, swap or copy (no I/O). */
	pthread_mutex_t mutex;
	char *newest[RENDERER_CHANNEL_COUNT];     /* NULL until the channel's first line */
	uint64_t versions[RENDERER_CHANNEL_COUNT]; /* one more per change */
	/* The supervisor thread only. */
	uint64_t begun[RENDERER_CHANNEL_COUNT]; /* the versions this renderer was given */
	char *writing;                          /* the line begun: finished before any other */
	size_t writing_length;
	size_t writing_sent;
};

enum stdin_flush_result {
	STDIN_FLUSH_DONE,    /* everything queued is written */
	STDIN_FLUSH_BLOCKED, /* the pipe is full: the rest waits for POLLOUT */
	STDIN_FLUSH_BROKEN,  /* the reader is gone (EPIPE) or the fd failed: everything due was dropped */
};

/* false (nothing to free) when the mutex cannot be made. */
bool stdin_queue_init(struct stdin_queue *queue);
void stdin_queue_free(struct stdin_queue *queue);
/* Any thread: keeps a copy of line (one '\n'-terminated line) as the channel's newest.
 * True when it differs from the channel's newest line (false also when out of memory). */
bool stdin_queue_put(struct stdin_queue *queue, enum renderer_channel channel, const char *line);
/* Supervisor thread, for a new renderer: the begun line is dropped and every channel's
 * newest line is due again. */
void stdin_queue_restart(struct stdin_queue *queue);
/* True while something is due: poll the fd for POLLOUT then. */
bool stdin_queue_has_lines(struct stdin_queue *queue);
/* Writes what the non-blocking fd accepts now. A SIGPIPE raised by a write to a reader that
 * is gone must be blocked in the calling thread: it is taken. */
enum stdin_flush_result stdin_queue_flush(struct stdin_queue *queue, int fd);
