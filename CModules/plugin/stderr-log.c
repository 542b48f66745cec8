// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "stderr-log.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "plugin-log.h"
#include "safe-text.h"

/* Bytes of stderr read per call, so a flood cannot keep the thread from its
 * other work (heartbeat, stopping). */
#define STDERR_READ_MAX 65536

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void stderr_log_init(struct stderr_log *log, const char *source_name, uint64_t now)
{
	memset(log, 0, sizeof(*log));
	log->source_name = source_name;
	log_limiter_init(&log->limiter, STDERR_LOG_BURST, STDERR_LOG_PER_S, now);
}

void stderr_log_report_left_out(struct stderr_log *log)
{
	const uint64_t left_out = log_limiter_take_refused(&log->limiter);
	if (left_out)
		source_log(LOG_WARNING, log->source_name,
			   "%llu lines of the renderer's output were not logged (more than %d a second)",
			   (unsigned long long)left_out, STDERR_LOG_PER_S);
}

static void emit_line(struct stderr_log *log)
{
	const size_t kept = log->kept, length = log->length;
	log->kept = log->length = 0;
	if (!log_limiter_allow(&log->limiter, now_ns()))
		return;
	stderr_log_report_left_out(log);
	char text[SAFE_TEXT_LOG_SIZE];
	safe_text_escape(text, sizeof(text), log->line, kept, length);
	plugin_log(LOG_INFO, "renderer: %s", text);
}

static void take_bytes(struct stderr_log *log, const char *bytes, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		if (bytes[i] == '\n') {
			emit_line(log);
			continue;
		}
		if (log->kept < STDERR_LINE_MAX)
			log->line[log->kept++] = bytes[i];
		log->length++; /* a long line is cut once, when it ends: not logged as many */
	}
}

bool stderr_log_read(struct stderr_log *log, int fd)
{
	char chunk[4096];
	size_t total = 0;
	while (total < STDERR_READ_MAX) {
		const ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		if (n <= 0) { /* EOF: every writer closed it */
			stderr_log_finish_line(log);
			return false;
		}
		total += (size_t)n;
		take_bytes(log, chunk, (size_t)n);
	}
	return true;
}

void stderr_log_finish_line(struct stderr_log *log)
{
	if (log->length)
		emit_line(log);
}

void stderr_log_status(struct stderr_log *log, const char *status)
{
	if (!log_limiter_allow(&log->limiter, now_ns()))
		return;
	stderr_log_report_left_out(log);
	char text[SAFE_TEXT_LOG_SIZE];
	safe_text_escape_string(text, sizeof(text), status);
	source_log(LOG_INFO, log->source_name, "renderer status: %s", text);
}
