// SPDX-License-Identifier: GPL-2.0-or-later
/* The newest versioned line: see newest-line.h. */
#define _GNU_SOURCE
#include "newest-line.h"

#include <stdlib.h>
#include <string.h>

bool newest_line_init(struct newest_line *newest)
{
	newest->line = NULL;
	newest->version = 0;
	return pthread_mutex_init(&newest->mutex, NULL) == 0;
}

void newest_line_free(struct newest_line *newest)
{
	pthread_mutex_destroy(&newest->mutex);
	free(newest->line);
	newest->line = NULL;
}

bool newest_line_set(struct newest_line *newest, const char *line)
{
	/* Copied before locking and freed after: the lock covers the swap only. */
	char *copy = strdup(line);
	if (!copy)
		return false;
	pthread_mutex_lock(&newest->mutex);
	const bool changed = !newest->line || strcmp(newest->line, copy) != 0;
	char *unused = changed ? newest->line : copy;
	if (changed) {
		newest->line = copy;
		newest->version++;
	}
	pthread_mutex_unlock(&newest->mutex);
	free(unused);
	return changed;
}

char *newest_line_take_newer(struct newest_line *newest, uint64_t *seen)
{
	char *copy = NULL;
	pthread_mutex_lock(&newest->mutex);
	if (newest->version != *seen && newest->line) {
		copy = strdup(newest->line);
		if (copy)
			*seen = newest->version;
	}
	pthread_mutex_unlock(&newest->mutex);
	return copy;
}
