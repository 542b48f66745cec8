// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "stdin-queue.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void stdin_queue_init(struct stdin_queue *queue)
{
	memset(queue, 0, sizeof(*queue));
}

void stdin_queue_clear(struct stdin_queue *queue)
{
	for (size_t i = 0; i < STDIN_KIND_COUNT; i++)
		free(queue->waiting[i]);
	free(queue->writing);
	stdin_queue_init(queue);
}

bool stdin_queue_put(struct stdin_queue *queue, enum stdin_kind kind, const char *line)
{
	if ((unsigned)kind >= STDIN_KIND_COUNT || !line)
		return false;
	char *copy = strdup(line);
	if (!copy)
		return false;
	free(queue->waiting[kind]); /* superseded: the renderer needs only the newest */
	queue->waiting[kind] = copy;
	return true;
}

bool stdin_queue_has_lines(const struct stdin_queue *queue)
{
	if (queue->writing)
		return true;
	for (size_t i = 0; i < STDIN_KIND_COUNT; i++)
		if (queue->waiting[i])
			return true;
	return false;
}

/* Makes the first waiting line, in kind order, the one being written. */
static bool begin_next_line(struct stdin_queue *queue)
{
	for (size_t i = 0; i < STDIN_KIND_COUNT; i++) {
		if (!queue->waiting[i])
			continue;
		queue->writing = queue->waiting[i];
		queue->waiting[i] = NULL;
		queue->writing_length = strlen(queue->writing);
		queue->writing_sent = 0;
		return true;
	}
	return false;
}

static void finish_line(struct stdin_queue *queue)
{
	free(queue->writing);
	queue->writing = NULL;
	queue->writing_length = queue->writing_sent = 0;
}

/* The write raised SIGPIPE, blocked in this thread: take it, so it is not
 * delivered to the process when the thread unblocks it or ends. */
static void take_pending_sigpipe(void)
{
	sigset_t pipe_set;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	const struct timespec zero = {0, 0};
	sigtimedwait(&pipe_set, NULL, &zero);
}

enum stdin_flush_result stdin_queue_flush(struct stdin_queue *queue, int fd)
{
	while (queue->writing || begin_next_line(queue)) {
		if (fd < 0) {
			stdin_queue_clear(queue);
			return STDIN_FLUSH_BROKEN;
		}
		if (queue->writing_sent == queue->writing_length) { /* an empty line: nothing to write */
			finish_line(queue);
			continue;
		}
		const ssize_t n = write(fd, queue->writing + queue->writing_sent,
					queue->writing_length - queue->writing_sent);
		if (n > 0) {
			queue->writing_sent += (size_t)n;
			if (queue->writing_sent == queue->writing_length)
				finish_line(queue);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return STDIN_FLUSH_BLOCKED;
		if (n < 0 && errno == EPIPE)
			take_pending_sigpipe();
		/* The renderer is gone (its exit is the supervisor's business) or the fd failed. */
		stdin_queue_clear(queue);
		return STDIN_FLUSH_BROKEN;
	}
	return STDIN_FLUSH_DONE;
}
