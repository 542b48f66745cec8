// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

int passed, failed;

void check(bool ok, const char *what, const char *detail_format, ...)
{
	char detail[1024] = "";
	if (detail_format) {
		va_list args;
		va_start(args, detail_format);
		vsnprintf(detail, sizeof(detail), detail_format, args);
		va_end(args);
	}
	if (ok)
		passed++;
	else
		failed++;
	printf("%s %s%s%s\n", ok ? "ok  " : "FAIL", what, detail[0] ? ": " : "", detail);
	fflush(stdout);
}

int check_summary(void)
{
	printf("%d passed, %d failed\n", passed, failed);
	fflush(stdout); /* LeakSanitizer may end the process before stdio's own flush */
	return failed ? 1 : 0;
}

uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}
