// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit_tests: the shim's libobs-free parts (unit-tests.h) and the overlay
 * helper's pool reader, linked directly (no plugin, no libobs). blog is defined here and keeps
 * every line for the checks. Prints "N passed, M failed".
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "unit-tests.h"

static char **lines;
static size_t line_count, line_capacity;

void blog(int log_level, const char *format, ...)
{
	(void)log_level;
	char text[8192];
	va_list args;
	va_start(args, format);
	vsnprintf(text, sizeof(text), format, args);
	va_end(args);
	if (line_count == line_capacity) {
		line_capacity = line_capacity ? line_capacity * 2 : 256;
		lines = realloc(lines, line_capacity * sizeof(*lines));
	}
	lines[line_count++] = strdup(text);
}

size_t logged_count(void)
{
	return line_count;
}

const char *logged_line(size_t index)
{
	return index < line_count ? lines[index] : NULL;
}

size_t logged_find(size_t from, const char *needle, const char **first)
{
	size_t found = 0;
	for (size_t i = from; i < line_count; i++)
		if (strstr(lines[i], needle)) {
			if (!found && first)
				*first = lines[i];
			found++;
		}
	return found;
}

void logged_clear(void)
{
	for (size_t i = 0; i < line_count; i++)
		free(lines[i]);
	line_count = 0;
}

int main(void)
{
	/* As on the supervisor thread: a write to a reader that is gone gives EPIPE. */
	sigset_t pipe_set;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);

	test_stdin_queue();
	test_log_limiter();
	test_safe_text();
	test_stderr_log();
	test_settings_choices();
	test_speech_ring();
	test_pool_abi();
	test_frame_pool();
	logged_clear();
	free(lines);
	return check_summary();
}
