// SPDX-License-Identifier: GPL-2.0-or-later
/* The renderer's stdin queue: newest line per channel, never blocking, never half a line; a new
 * renderer gets every channel's newest line again. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "stdin-queue.h"
#include "unit-tests.h"

/* A pipe whose write end is non-blocking, as the supervisor's; capacity one page. */
static bool small_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC) != 0)
		return false;
	fcntl(fds[1], F_SETPIPE_SZ, 4096);
	fcntl(fds[1], F_SETFL, O_NONBLOCK);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	return true;
}

/* Appends what the pipe holds now to *text (grown as needed). */
static void drain(int fd, char **text, size_t *length)
{
	char chunk[4096];
	ssize_t n;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0) {
		*text = realloc(*text, *length + (size_t)n + 1);
		memcpy(*text + *length, chunk, (size_t)n);
		*length += (size_t)n;
		(*text)[*length] = '\0';
	}
}

static char *long_line(char fill, size_t length)
{
	char *line = malloc(length + 2);
	line[0] = '{';
	memset(line + 1, fill, length - 2);
	line[length - 1] = '}';
	line[length] = '\n';
	line[length + 1] = '\0';
	return line;
}

static void newest_per_kind(void)
{
	int fds[2];
	if (!small_pipe(fds)) {
		check(false, "stdin queue: a pipe", "%s", strerror(errno));
		return;
	}
	struct stdin_queue queue;
	if (!stdin_queue_init(&queue))
		return;
	check(stdin_queue_flush(&queue, fds[1]) == STDIN_FLUSH_DONE && !stdin_queue_has_lines(&queue),
	      "stdin queue: an empty queue writes nothing and is done", NULL);
	/* active first, then three settings, then active again: the newest of each, settings first. */
	stdin_queue_put(&queue, RENDERER_CHANNEL_ACTIVE, "{\"active\":true}\n");
	stdin_queue_put(&queue, RENDERER_CHANNEL_SETTINGS, "{\"settings\":1}\n");
	stdin_queue_put(&queue, RENDERER_CHANNEL_SETTINGS, "{\"settings\":2}\n");
	stdin_queue_put(&queue, RENDERER_CHANNEL_SETTINGS, "{\"settings\":3}\n");
	stdin_queue_put(&queue, RENDERER_CHANNEL_ACTIVE, "{\"active\":false}\n");
	const enum stdin_flush_result result = stdin_queue_flush(&queue, fds[1]);
	char *text = NULL;
	size_t length = 0;
	drain(fds[0], &text, &length);
	check(result == STDIN_FLUSH_DONE && text && strcmp(text, "{\"settings\":3}\n{\"active\":false}\n") == 0,
	      "stdin queue: only the newest line of each kind is written, settings before active", "got %zu bytes",
	      length);
	free(text);
	stdin_queue_free(&queue);
	close(fds[0]);
	close(fds[1]);
}

static void never_blocks_and_loses_nothing(void)
{
	int fds[2];
	if (!small_pipe(fds)) {
		check(false, "stdin queue: a pipe", "%s", strerror(errno));
		return;
	}
	struct stdin_queue queue;
	if (!stdin_queue_init(&queue))
		return;
	enum { FIRST_LENGTH = 100000 };
	char *first = long_line('a', FIRST_LENGTH);
	char *second = long_line('b', 20000);
	stdin_queue_put(&queue, RENDERER_CHANNEL_SETTINGS, first);
	/* The pipe is non-blocking: returning at all, with BLOCKED, is the proof (no timing). */
	const enum stdin_flush_result result = stdin_queue_flush(&queue, fds[1]);
	check(result == STDIN_FLUSH_BLOCKED && stdin_queue_has_lines(&queue),
	      "stdin queue: a line larger than the pipe returns BLOCKED instead of waiting", "result %d", (int)result);

	/* While the first line is half written, newer settings and an active line arrive. */
	stdin_queue_put(&queue, RENDERER_CHANNEL_SETTINGS, "{\"settings\":\"superseded\"}\n");
	stdin_queue_put(&queue, RENDERER_CHANNEL_SETTINGS, second);
	stdin_queue_put(&queue, RENDERER_CHANNEL_ACTIVE, "{\"active\":true}\n");
	char *text = NULL;
	size_t length = 0;
	int rounds = 0;
	enum stdin_flush_result last = STDIN_FLUSH_BLOCKED;
	while (last == STDIN_FLUSH_BLOCKED && rounds++ < 10000) {
		drain(fds[0], &text, &length);
		last = stdin_queue_flush(&queue, fds[1]);
	}
	drain(fds[0], &text, &length);
	const size_t expected_length = strlen(first) + strlen(second) + strlen("{\"active\":true}\n");
	const bool whole = text && length == expected_length && strncmp(text, first, strlen(first)) == 0 &&
			   strncmp(text + strlen(first), second, strlen(second)) == 0 &&
			   strcmp(text + strlen(first) + strlen(second), "{\"active\":true}\n") == 0;
	check(last == STDIN_FLUSH_DONE && whole && !stdin_queue_has_lines(&queue),
	      "stdin queue: a line begun is finished before the next; the superseded one is never sent",
	      "%zu bytes of %zu in %d rounds", length, expected_length, rounds);
	free(text);
	free(first);
	free(second);
	stdin_queue_free(&queue);
	close(fds[0]);
	close(fds[1]);
}

static void reader_gone(void)
{
	int fds[2];
	if (!small_pipe(fds)) {
		check(false, "stdin queue: a pipe", "%s", strerror(errno));
		return;
	}
	close(fds[0]);
	struct stdin_queue queue;
	if (!stdin_queue_init(&queue))
		return;
	stdin_queue_put(&queue, RENDERER_CHANNEL_SETTINGS, "{\"settings\":1}\n");
	stdin_queue_put(&queue, RENDERER_CHANNEL_ACTIVE, "{\"active\":true}\n");
	const enum stdin_flush_result result = stdin_queue_flush(&queue, fds[1]);
	check(result == STDIN_FLUSH_BROKEN && !stdin_queue_has_lines(&queue),
	      "stdin queue: a reader that is gone gives BROKEN (EPIPE, no SIGPIPE) and drops the lines", "result %d",
	      (int)result);
	stdin_queue_free(&queue);
	close(fds[1]);
}

/* A new renderer gets every channel's newest line again, in the table's order; a line equal
 * to the channel's last one is nothing new. */
static void restart_and_repeats(void)
{
	int fds[2];
	struct stdin_queue queue;
	if (!small_pipe(fds) || !stdin_queue_init(&queue)) {
		check(false, "stdin queue: a pipe and a queue", "%s", strerror(errno));
		return;
	}
	const bool first_put = stdin_queue_put(&queue, RENDERER_CHANNEL_ACTIONS, "{\"actions\":{\"unpin\":1}}\n");
	stdin_queue_put(&queue, RENDERER_CHANNEL_SETTINGS, "{\"settings\":1}\n");
	stdin_queue_flush(&queue, fds[1]);
	char *text = NULL;
	size_t length = 0;
	drain(fds[0], &text, &length);
	const bool repeat_put = stdin_queue_put(&queue, RENDERER_CHANNEL_ACTIONS, "{\"actions\":{\"unpin\":1}}\n");
	check(first_put && !repeat_put && !stdin_queue_has_lines(&queue),
	      "stdin queue: a line equal to its channel's last one is nothing new", NULL);
	stdin_queue_restart(&queue);
	check(stdin_queue_has_lines(&queue), "stdin queue: after a restart every channel's newest line is due", NULL);
	stdin_queue_flush(&queue, fds[1]);
	drain(fds[0], &text, &length);
	const char *both = "{\"settings\":1}\n{\"actions\":{\"unpin\":1}}\n";
	check(text && length == 2 * strlen(both) && strcmp(text + strlen(both), both) == 0,
	      "stdin queue: a new renderer gets each channel's newest line again, settings first", "%zu bytes",
	      length);
	free(text);
	stdin_queue_free(&queue);
	close(fds[0]);
	close(fds[1]);
}

#define WRITERS 4
#define WRITES 2000

static void *put_lines(void *data)
{
	struct stdin_queue *queue = data;
	char line[32];
	for (int i = 0; i < WRITES; i++) {
		snprintf(line, sizeof(line), "{\"obs\":{\"n\":%d}}\n", i);
		stdin_queue_put(queue, RENDERER_CHANNEL_OBS, line);
	}
	return NULL;
}

/* Lines put on several threads at once, as OBS's threads do: one whole line comes out. */
static void concurrent_puts(void)
{
	int fds[2];
	struct stdin_queue queue;
	if (!small_pipe(fds) || !stdin_queue_init(&queue)) {
		check(false, "stdin queue: a pipe and a queue", "%s", strerror(errno));
		return;
	}
	pthread_t threads[WRITERS];
	for (int i = 0; i < WRITERS; i++)
		pthread_create(&threads[i], NULL, put_lines, &queue);
	for (int i = 0; i < WRITERS; i++)
		pthread_join(threads[i], NULL);
	stdin_queue_flush(&queue, fds[1]);
	char *text = NULL;
	size_t length = 0;
	drain(fds[0], &text, &length);
	check(text && strncmp(text, "{\"obs\":{\"n\":", strlen("{\"obs\":{\"n\":")) == 0 && strchr(text, '\n') == text + length - 1 &&
		      !stdin_queue_has_lines(&queue),
	      "stdin queue: lines put on four threads at once leave one whole line, the newest", "%zu bytes", length);
	free(text);
	stdin_queue_free(&queue);
	close(fds[0]);
	close(fds[1]);
}

void test_stdin_queue(void)
{
	concurrent_puts();
	restart_and_repeats();
	newest_per_kind();
	never_blocks_and_loses_nothing();
	reader_gone();
}
