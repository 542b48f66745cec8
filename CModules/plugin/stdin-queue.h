// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stdin-queue: the lines waiting for the renderer's stdin, written without
 * ever blocking. It keeps only the NEWEST line of each kind: a renderer that
 * reads slowly gets the latest settings, not every settings it missed.
 *
 * A line once started is always finished before any other is begun, so the
 * renderer never sees half a line followed by another. Lines of different
 * kinds go out in the order of enum stdin_kind (settings first: a renderer
 * must know its settings before anything else). One thread only; no libobs.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

enum stdin_kind {
	STDIN_KIND_SETTINGS, /* {"settings":{...}} */
	STDIN_KIND_ACTIVE,   /* {"active":true|false} */
	STDIN_KIND_OBS,      /* {"obs":{...}}: OBS's streaming, recording and mic state */
	STDIN_KIND_SPEECH,   /* {"speech":{...}}: the reading hotkeys (speech-hotkeys.c) */
	STDIN_KIND_COUNT,
};

struct stdin_queue {
	char *waiting[STDIN_KIND_COUNT]; /* the newest line of each kind not begun yet; NULL: none */
	char *writing;                   /* the line begun: finished before any other */
	size_t writing_length;
	size_t writing_sent;
};

enum stdin_flush_result {
	STDIN_FLUSH_DONE,    /* everything queued is written */
	STDIN_FLUSH_BLOCKED, /* the pipe is full: the rest waits for POLLOUT */
	STDIN_FLUSH_BROKEN,  /* the reader is gone (EPIPE) or the fd failed: everything was dropped */
};

void stdin_queue_init(struct stdin_queue *queue);
/* Drops every line and frees them (also to reuse the queue for a new renderer). */
void stdin_queue_clear(struct stdin_queue *queue);
/* Queues a copy of line (one '\n'-terminated line), replacing a line of the
 * same kind that was not begun yet. Returns false if out of memory. */
bool stdin_queue_put(struct stdin_queue *queue, enum stdin_kind kind, const char *line);
/* True while something is queued: poll the fd for POLLOUT then. */
bool stdin_queue_has_lines(const struct stdin_queue *queue);
/* Writes what the non-blocking fd accepts now. A SIGPIPE raised by a write to
 * a reader that is gone must be blocked in the calling thread: it is taken. */
enum stdin_flush_result stdin_queue_flush(struct stdin_queue *queue, int fd);
