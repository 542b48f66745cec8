// SPDX-License-Identifier: GPL-2.0-or-later
/* The newest versioned line the supervisor keeps for the settings and for OBS's state. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "newest-line.h"
#include "unit-tests.h"

#define WRITERS 4
#define WRITES 2000

static void *write_lines(void *data)
{
	struct newest_line *newest = data;
	char line[32];
	for (int i = 0; i < WRITES; i++) {
		snprintf(line, sizeof(line), "{\"n\":%d}", i);
		newest_line_set(newest, line);
	}
	return NULL;
}

void test_newest_line(void)
{
	struct newest_line newest;
	check(newest_line_init(&newest), "a newest line starts", NULL);
	uint64_t seen = 0;
	check(newest_line_take_newer(&newest, &seen) == NULL && seen == 0, "nothing to take before the first line",
	      "seen %llu", (unsigned long long)seen);

	check(newest_line_set(&newest, "a"), "a first line is new", NULL);
	check(!newest_line_set(&newest, "a"), "the same line again changes nothing (no version, no wake)", NULL);
	char *taken = newest_line_take_newer(&newest, &seen);
	check(taken && strcmp(taken, "a") == 0 && seen == 1, "the reader takes a copy and its version",
	      "\"%s\" at %llu", taken ? taken : "(null)", (unsigned long long)seen);
	free(taken);
	check(newest_line_take_newer(&newest, &seen) == NULL, "a line taken is not taken twice", NULL);

	/* Lines not taken yet are replaced, never queued: the reader gets the newest only. */
	newest_line_set(&newest, "b");
	newest_line_set(&newest, "c");
	taken = newest_line_take_newer(&newest, &seen);
	check(taken && strcmp(taken, "c") == 0 && seen == 3, "only the newest of several lines is taken",
	      "\"%s\" at %llu", taken ? taken : "(null)", (unsigned long long)seen);
	free(taken);

	/* A new renderer has seen nothing: it gets the newest line again. */
	uint64_t fresh = 0;
	taken = newest_line_take_newer(&newest, &fresh);
	check(taken && strcmp(taken, "c") == 0 && fresh == seen, "a reader that saw nothing gets the newest line",
	      NULL);
	free(taken);

	/* Writers on several threads, as OBS's: the version counts every change, the last line survives. */
	pthread_t threads[WRITERS];
	for (int i = 0; i < WRITERS; i++)
		pthread_create(&threads[i], NULL, write_lines, &newest);
	for (int i = 0; i < WRITERS; i++)
		pthread_join(threads[i], NULL);
	taken = newest_line_take_newer(&newest, &seen);
	check(taken && strncmp(taken, "{\"n\":", 5) == 0 && seen > 3 && seen <= 3 + WRITERS * WRITES,
	      "concurrent writers leave one whole line and a version that moved", "\"%s\" at %llu",
	      taken ? taken : "(null)", (unsigned long long)seen);
	free(taken);
	newest_line_free(&newest);
}
