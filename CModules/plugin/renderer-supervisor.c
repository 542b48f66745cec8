// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The supervisor: its thread's loop and the API OBS's threads use. One
 * renderer's life (start, feed, watch, restart, stop) is renderer-run.c;
 * shim-threads joins the threads at unload.
 */
#define _GNU_SOURCE
#include "renderer-supervisor.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "plugin-log.h"
#include "renderer-supervisor-state.h"
#include "safe-text.h"
#include "shim-threads.h"

/* Settings too long to send: reported at once, then at most every 10 s. */
#define REJECTED_REPORT_BURST 1
#define REJECTED_REPORTS_PER_S 0.1
/* Source names are the user's text: escaped once, and this long at most. */
#define SOURCE_NAME_LOG_SIZE 256

static void wake(struct renderer_supervisor *sup)
{
	const uint64_t one = 1;
	/* A full counter already means "wake up": the result does not matter. */
	ssize_t ignored = write(sup->wake_fd, &one, sizeof(one));
	(void)ignored;
}

/* Settings that were too long are logged here, not on the OBS thread that
 * made them: at once, then at most every 10 s with a count. */
static void report_rejected_settings(struct renderer_supervisor *sup, uint64_t now)
{
	pthread_mutex_lock(&sup->mutex);
	const uint64_t count = sup->rejected_count;
	const size_t length = sup->rejected_length;
	pthread_mutex_unlock(&sup->mutex);
	if (count == sup->rejected_reported || !log_limiter_allow(&sup->rejected_reports, now))
		return;
	const uint64_t new_ones = count - sup->rejected_reported;
	source_log(LOG_WARNING, sup->name,
		   "settings of %zu bytes are longer than the %d bytes the shim sends: not sent, the renderer keeps "
		   "its previous settings (%llu such update%s since the last report; shorten the server, stream ID or "
		   "file paths)",
		   length, RENDERER_SETTINGS_LINE_MAX, (unsigned long long)new_ones, new_ones == 1 ? "" : "s");
	sup->rejected_reported = count;
}

/* ---- the supervisor's own life ---- */

static void free_supervisor(struct renderer_supervisor *sup)
{
	frame_pool_unref(sup->current_pool);
	stdin_queue_free(&sup->input);
	if (sup->wake_fd >= 0)
		close(sup->wake_fd);
	pthread_mutex_destroy(&sup->mutex);
	free(sup->renderer_path);
	free(sup->name);
	free(sup);
}

static void release_supervisor(struct renderer_supervisor *sup)
{
	if (atomic_fetch_sub_explicit(&sup->refs, 1, memory_order_acq_rel) == 1)
		free_supervisor(sup);
}

static void *supervisor_thread(void *data)
{
	struct renderer_supervisor *sup = data;
	/* Writing to a dead renderer's stdin must give EPIPE here, not kill OBS. */
	sigset_t pipe_set;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);

	for (;;) {
		pthread_mutex_lock(&sup->mutex);
		const bool stopping = sup->stopping;
		const uint32_t want_width = sup->want_width, want_height = sup->want_height;
		pthread_mutex_unlock(&sup->mutex);
		if (stopping)
			break;

		report_rejected_settings(sup, supervisor_now_ns());
		if (sup->run.child.pid)
			renderer_run_supervise(sup, want_width, want_height);
		if (!sup->run.child.pid && supervisor_now_ns() >= sup->next_start_ns &&
		    renderer_run_start(sup, want_width, want_height))
			renderer_run_write_input(sup);
		renderer_run_wait_for_events(sup);
	}
	renderer_run_stop(sup, "the source was removed");
	stderr_log_report_left_out(&sup->output);
	release_supervisor(sup);
	return NULL;
}

/* ---- the API for OBS's threads ---- */

static char *escaped_name(const char *name)
{
	char text[SOURCE_NAME_LOG_SIZE];
	safe_text_escape_string(text, sizeof(text), name ? name : "");
	return strdup(text);
}

struct renderer_supervisor *renderer_supervisor_start(const char *name, const char *renderer_path, uint32_t width,
						      uint32_t height, const char *settings_line)
{
	struct renderer_supervisor *sup = calloc(1, sizeof(*sup));
	if (!sup)
		return NULL;
	sup->name = escaped_name(name);
	sup->renderer_path = strdup(renderer_path);
	sup->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!sup->name || !sup->renderer_path || sup->wake_fd < 0 || !stdin_queue_init(&sup->input))
		goto fail;
	if (pthread_mutex_init(&sup->mutex, NULL) != 0)
		goto fail_input;
	const size_t settings_length = strlen(settings_line);
	if (settings_length <= RENDERER_SETTINGS_LINE_MAX) {
		stdin_queue_put(&sup->input, RENDERER_CHANNEL_SETTINGS, settings_line);
	} else {
		sup->settings_rejected = true;
		sup->rejected_length = settings_length;
		sup->rejected_count = 1;
	}
	atomic_init(&sup->refs, 2);
	sup->want_width = width;
	sup->want_height = height;
	sup->restart_delay_ns = RESTART_DELAY_FIRST_NS;
	child_process_init(&sup->run.child);
	const uint64_t now = supervisor_now_ns();
	stderr_log_init(&sup->output, sup->name, now);
	log_limiter_init(&sup->rejected_reports, REJECTED_REPORT_BURST, REJECTED_REPORTS_PER_S, now);
	snprintf(sup->summary, sizeof(sup->summary), "not started yet");

	if (!shim_threads_start("comment-bar-sup", supervisor_thread, sup))
		goto fail_mutex;
	return sup;

fail_mutex:
	pthread_mutex_destroy(&sup->mutex);
fail_input:
	stdin_queue_free(&sup->input);
fail:;
	char shown[SOURCE_NAME_LOG_SIZE];
	safe_text_escape_string(shown, sizeof(shown), name);
	source_log(LOG_ERROR, shown, "cannot start the renderer supervisor");
	if (sup->wake_fd >= 0)
		close(sup->wake_fd);
	free(sup->name);
	free(sup->renderer_path);
	free(sup);
	return NULL;
}

void renderer_supervisor_stop(struct renderer_supervisor *sup)
{
	if (!sup)
		return;
	pthread_mutex_lock(&sup->mutex);
	sup->stopping = true;
	pthread_mutex_unlock(&sup->mutex);
	wake(sup);
	release_supervisor(sup);
	shim_threads_join_ended();
}

bool renderer_supervisor_set_settings(struct renderer_supervisor *sup, const char *settings_line, uint32_t width,
				      uint32_t height)
{
	const size_t length = strlen(settings_line);
	if (length > RENDERER_SETTINGS_LINE_MAX) {
		/* Nothing changes, the size included; the supervisor thread logs it. */
		pthread_mutex_lock(&sup->mutex);
		sup->settings_rejected = true;
		sup->rejected_length = length;
		sup->rejected_count++;
		pthread_mutex_unlock(&sup->mutex);
		wake(sup);
		return false;
	}
	const bool changed = stdin_queue_put(&sup->input, RENDERER_CHANNEL_SETTINGS, settings_line);
	pthread_mutex_lock(&sup->mutex);
	sup->settings_rejected = false;
	sup->want_width = width;
	sup->want_height = height;
	pthread_mutex_unlock(&sup->mutex);
	if (changed)
		wake(sup);
	return true;
}

void renderer_supervisor_send(struct renderer_supervisor *sup, enum renderer_channel channel, const char *line)
{
	if (channel != RENDERER_CHANNEL_SETTINGS && stdin_queue_put(&sup->input, channel, line))
		wake(sup);
}

bool renderer_supervisor_adopt_pool(struct renderer_supervisor *sup, struct frame_pool **pool)
{
	if (pthread_mutex_trylock(&sup->mutex) != 0)
		return false;
	if (sup->current_pool == *pool) {
		pthread_mutex_unlock(&sup->mutex);
		return false;
	}
	struct frame_pool *old = *pool;
	*pool = frame_pool_ref(sup->current_pool);
	pthread_mutex_unlock(&sup->mutex);
	frame_pool_unref(old);
	return true;
}

void renderer_supervisor_describe(struct renderer_supervisor *sup, char *out, size_t out_size)
{
	pthread_mutex_lock(&sup->mutex);
	if (sup->settings_rejected)
		snprintf(out, out_size,
			 "%s. The newest settings were not sent: %zu bytes, more than %d (shorten the server, stream ID "
			 "or file paths)",
			 sup->summary, sup->rejected_length, RENDERER_SETTINGS_LINE_MAX);
	else
		snprintf(out, out_size, "%s", sup->summary);
	pthread_mutex_unlock(&sup->mutex);
}

