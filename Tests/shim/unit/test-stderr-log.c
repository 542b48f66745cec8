// SPDX-License-Identifier: GPL-2.0-or-later
/* The renderer's output into the log: lines, escapes, one cut, one budget. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "stderr-log.h"
#include "unit-tests.h"

/* Writes text into a pipe, closes it, and feeds the read end to log until EOF. */
static void feed(struct stderr_log *log, const char *text, size_t length)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0)
		return;
	fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
	fcntl(fds[1], F_SETFL, 0); /* blocking: write it all (the pipe holds 1 MiB) */
	const ssize_t ignored = write(fds[1], text, length);
	(void)ignored;
	close(fds[1]);
	for (int i = 0; i < 1000 && stderr_log_read(log, fds[0]); i++) {
	}
	close(fds[0]);
}

void test_stderr_log(void)
{
	struct stderr_log log;
	stderr_log_init(&log, "Bar \\x1b", now_ns());
	size_t mark = logged_count();
	static const char text[] = "one\r\ntwo\tTAB\nthree without newline";
	feed(&log, text, strlen(text));
	const char *first = NULL;
	const size_t ones = logged_find(mark, "[comment-bar] renderer: one\\r", &first);
	check(logged_count() - mark == 3 && ones == 1 &&
		      logged_find(mark, "[comment-bar] renderer: two\\tTAB", NULL) == 1 &&
		      logged_find(mark, "[comment-bar] renderer: three without newline", NULL) == 1,
	      "stderr log: one log line per line, escaped; the last one logged at EOF", "%zu lines, first \"%s\"",
	      logged_count() - mark, first ? first : "");

	mark = logged_count();
	enum { LONG = 30000 };
	char *long_line = malloc(LONG + 1);
	memset(long_line, 'u', LONG);
	long_line[LONG] = '\n';
	feed(&log, long_line, LONG + 1);
	free(long_line);
	const char *cut = NULL;
	check(logged_count() - mark == 1 && logged_find(mark, "\xe2\x80\xa6 (30000 bytes)", &cut) == 1 &&
		      strlen(cut) < 1100,
	      "stderr log: a 30000-byte line is one log line, cut once, with its length", "%zu lines",
	      logged_count() - mark);

	/* 300 lines at once: the burst of 200, then one report of the 100 left out. */
	stderr_log_init(&log, "Bar", now_ns());
	mark = logged_count();
	char *many = malloc(300 * 16);
	size_t length = 0;
	for (int i = 0; i < 300; i++)
		length += (size_t)sprintf(many + length, "line %d\n", i);
	feed(&log, many, length);
	free(many);
	const size_t logged_lines = logged_find(mark, "renderer: line ", NULL);
	stderr_log_report_left_out(&log);
	const char *report = NULL;
	const size_t reports =
		logged_find(mark, "[comment-bar] 'Bar': 100 lines of the renderer's output were not logged", &report);
	check(logged_lines == STDERR_LOG_BURST && reports == 1,
	      "stderr log: a flood gets the burst, then one report of how many lines were left out",
	      "%zu logged; report \"%s\"", logged_lines, report ? report : "");
	stderr_log_status(&log, "live");
	check(logged_find(mark, "renderer status: live", NULL) == 0,
	      "stderr log: status changes share the lines' budget", NULL);
}
