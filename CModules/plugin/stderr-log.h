// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stderr-log: the renderer's stdout/stderr, copied into the OBS log line by
 * line as "[comment-bar] renderer: <line>", escaped (safe-text.h) and cut
 * once when long. Renderer lines and status changes share one token bucket,
 * so a chatty or flapping renderer cannot flood the log; the lines left out
 * are counted and the count is logged. Supervisor thread only.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "log-limiter.h"

/* Bytes of a line kept for the log; the rest is counted, not logged. */
#define STDERR_LINE_MAX 1024
/* Renderer lines (and status changes) copied into the OBS log: a burst of this
 * many, then this many a second. */
#define STDERR_LOG_BURST 200
#define STDERR_LOG_PER_S 20

struct stderr_log {
	const char *source_name; /* escaped, for the reports; owned by the caller */
	struct log_limiter limiter;
	char line[STDERR_LINE_MAX];
	size_t kept;   /* bytes of the current line in `line` */
	size_t length; /* bytes of the current line seen so far */
};

void stderr_log_init(struct stderr_log *log, const char *source_name, uint64_t now_ns);
/* Reads what fd (non-blocking) has, at most a bounded amount per call so a
 * flood cannot keep the thread from its other work, and logs every whole line.
 * Returns false at EOF or on an error: the caller closes fd. */
bool stderr_log_read(struct stderr_log *log, int fd);
/* Logs a last line that had no '\n' (the renderer is gone). */
void stderr_log_finish_line(struct stderr_log *log);
/* Logs "renderer status: <status>" (status already printable) within the same budget. */
void stderr_log_status(struct stderr_log *log, const char *status);
/* Logs how many lines were left out since the last report, if any. */
void stderr_log_report_left_out(struct stderr_log *log);
