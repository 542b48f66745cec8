// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "stdin-queue.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

bool stdin_queue_init(struct stdin_queue *queue)
{
	memset(queue, 0, sizeof(*queue));
	return pthread_mutex_init(&queue->mutex, NULL) == 0;
}

static void finish_line(struct stdin_queue *queue)
{
	free(queue->writing);
	queue->writing = NULL;
	queue->writing_length = queue->writing_sent = 0;
}

void stdin_queue_free(struct stdin_queue *queue)
{
	finish_line(queue);
	for (size_t i = 0; i < RENDERER_CHANNEL_COUNT; i++)
		free(queue->newest[i]);
	pthread_mutex_destroy(&queue->mutex);
}

bool stdin_queue_put(struct stdin_queue *queue, enum renderer_channel channel, const char *line)
{
	if ((unsigned)channel >= RENDERER_CHANNEL_COUNT || !line)
		return false;
	/* Copied before locking and freed after: the lock covers the compare and the swap. */
	char *copy = strdup(line);
	if (!copy)
		return false;
	pthread_mutex_lock(&queue->mutex);
	const bool changed = !queue->newest[channel] || strcmp(queue->newest[channel], copy) != 0;
	char *unused = changed ? queue->newest[channel] : copy;
	if (changed) {
		queue->newest[channel] = copy;
		queue->versions[channel]++;
	}
	pthread_mutex_unlock(&queue->mutex);
	free(unused);
	return changed;
}

void stdin_queue_restart(struct stdin_queue *queue)
{
	finish_line(queue);
	memset(queue->begun, 0, sizeof(queue->begun));
}

bool stdin_queue_has_lines(struct stdin_queue *queue)
{
	bool due = queue->writing != NULL;
	pthread_mutex_lock(&queue->mutex);
	for (size_t i = 0; i < RENDERER_CHANNEL_COUNT && !due; i++)
		due = queue->versions[i] != queue->begun[i];
	pthread_mutex_unlock(&queue->mutex);
	return due;
}

/* Makes a copy of the newest line of the first channel, in table order, that has one not
 * begun yet the line being written: a line replaced before that is never written. */
static bool begin_next_line(struct stdin_queue *queue)
{
	pthread_mutex_lock(&queue->mutex);
	for (size_t i = 0; i < RENDERER_CHANNEL_COUNT && !queue->writing; i++) {
		if (queue->versions[i] == queue->begun[i])
			continue;
		queue->writing = strdup(queue->newest[i]);
		queue->begun[i] = queue->versions[i]; /* out of memory: that line is dropped */
	}
	pthread_mutex_unlock(&queue->mutex);
	queue->writing_length = queue->writing ? strlen(queue->writing) : 0;
	queue->writing_sent = 0;
	return queue->writing != NULL;
}

/* The reader is gone: nothing is due any more, until a new renderer (restart). */
static enum stdin_flush_result broken(struct stdin_queue *queue)
{
	finish_line(queue);
	pthread_mutex_lock(&queue->mutex);
	memcpy(queue->begun, queue->versions, sizeof(queue->begun));
	pthread_mutex_unlock(&queue->mutex);
	return STDIN_FLUSH_BROKEN;
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
		if (fd < 0)
			return broken(queue);
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
		/* The renderer is gone (its exit is the supervisor's business) or the fd failed;
		 * the next renderer starts again from every channel's newest line. */
		return broken(queue);
	}
	return STDIN_FLUSH_DONE;
}
