// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include "shim-threads.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "plugin-log.h"

struct thread_record {
	void *(*main)(void *);
	void *arg;
	char name[16]; /* the kernel's limit, with its NUL */
	pthread_t thread;
	struct thread_record *next; /* in the list of finished threads */
};

/* How many threads are still running, and the finished ones not joined yet. */
static pthread_mutex_t threads_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t threads_cond = PTHREAD_COND_INITIALIZER;
static unsigned threads_running;
static struct thread_record *threads_finished;

/* Joins the finished threads that have fully ended; never waits. Needs threads_mutex. */
static void join_ended_locked(void)
{
	struct thread_record **link = &threads_finished;
	while (*link) {
		struct thread_record *record = *link;
		if (pthread_tryjoin_np(record->thread, NULL) == 0) {
			*link = record->next;
			free(record);
		} else {
			link = &record->next;
		}
	}
}

void shim_threads_join_ended(void)
{
	pthread_mutex_lock(&threads_mutex);
	join_ended_locked();
	pthread_mutex_unlock(&threads_mutex);
}

static void *run_counted(void *data)
{
	struct thread_record *record = data;
	pthread_setname_np(pthread_self(), record->name);
	record->main(record->arg);
	/* The thread's last act: after it, only the return into libc runs. */
	record->thread = pthread_self();
	pthread_mutex_lock(&threads_mutex);
	join_ended_locked();
	record->next = threads_finished;
	threads_finished = record;
	threads_running--;
	pthread_cond_broadcast(&threads_cond);
	pthread_mutex_unlock(&threads_mutex);
	return NULL;
}

bool shim_threads_start(const char *name, void *(*main)(void *), void *arg)
{
	shim_threads_join_ended();
	struct thread_record *record = calloc(1, sizeof(*record));
	if (!record)
		return false;
	record->main = main;
	record->arg = arg;
	snprintf(record->name, sizeof(record->name), "%s", name);
	pthread_mutex_lock(&threads_mutex);
	threads_running++;
	pthread_mutex_unlock(&threads_mutex);
	pthread_t thread;
	if (pthread_create(&thread, NULL, run_counted, record) != 0) {
		pthread_mutex_lock(&threads_mutex);
		threads_running--;
		pthread_mutex_unlock(&threads_mutex);
		free(record);
		return false;
	}
	return true;
}

bool shim_threads_wait_all(unsigned timeout_ms)
{
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += timeout_ms / 1000;
	deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&threads_mutex);
	while (threads_running > 0 &&
	       pthread_cond_clockwait(&threads_cond, &threads_mutex, CLOCK_MONOTONIC, &deadline) != ETIMEDOUT) {
	}
	const unsigned still_running = threads_running;
	/* Each finished thread has done all but return: joining takes no time.
	 * A second's margin covers a thread preempted right after signalling. */
	deadline.tv_sec++;
	struct thread_record **link = &threads_finished;
	while (*link) {
		struct thread_record *record = *link;
		if (pthread_clockjoin_np(record->thread, NULL, CLOCK_MONOTONIC, &deadline) == 0) {
			*link = record->next;
			free(record);
		} else {
			link = &record->next;
		}
	}
	pthread_mutex_unlock(&threads_mutex);
	if (still_running)
		plugin_log(LOG_ERROR, "%u thread%s of the shim still running after %u ms; unloading anyway",
			   still_running, still_running == 1 ? " is" : "s are", timeout_ms);
	return still_running == 0;
}
