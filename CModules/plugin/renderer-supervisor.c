// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The supervisor: its thread's loop and the API OBS's threads use. One
 * renderer's life (start, feed, watch, restart, stop) is renderer-run.c;
 * supervisor-threads joins the threads at unload.
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

#include <obs-data.h>
#include <util/bmem.h>

#include "plugin-log.h"
#include "renderer-supervisor-state.h"
#include "safe-text.h"
#include "supervisor-threads.h"

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

/* ---- the renderer's stdin: one JSON object per line ---- */

char *renderer_supervisor_json_line(obs_data_t *data)
{
	/* OBS 29's obs_data_get_json is compact; any raw newline could only be
	 * whitespace between tokens (inside strings it is escaped): safe to flatten. */
	const char *json = obs_data_get_json(data);
	const size_t len = json ? strlen(json) : 0;
	char *line = bmalloc(len + 2);
	memcpy(line, json ? json : "", len);
	for (size_t i = 0; i < len; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = ' ';
	line[len] = '\n';
	line[len + 1] = '\0';
	return line;
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
	stdin_queue_clear(&sup->run.input);
	if (sup->wake_fd >= 0)
		close(sup->wake_fd);
	pthread_mutex_destroy(&sup->mutex);
	newest_line_free(&sup->settings);
	newest_line_free(&sup->obs);
	newest_line_free(&sup->speech);
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
	pthread_setname_np(pthread_self(), "comment-bar-sup");
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
						      uint32_t height, const char *settings_line, bool active)
{
	struct renderer_supervisor *sup = calloc(1, sizeof(*sup));
	if (!sup)
		return NULL;
	sup->wake_fd = -1;
	sup->name = escaped_name(name);
	sup->renderer_path = strdup(renderer_path);
	sup->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!sup->name || !sup->renderer_path || sup->wake_fd < 0)
		goto fail;
	if (!newest_line_init(&sup->settings))
		goto fail;
	if (!newest_line_init(&sup->obs))
		goto fail_settings;
	if (!newest_line_init(&sup->speech))
		goto fail_obs;
	if (pthread_mutex_init(&sup->mutex, NULL) != 0)
		goto fail_speech;
	const size_t settings_length = strlen(settings_line);
	if (settings_length <= RENDERER_SETTINGS_LINE_MAX) {
		if (!newest_line_set(&sup->settings, settings_line))
			goto fail_mutex;
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
	stdin_queue_init(&sup->run.input);
	const uint64_t now = supervisor_now_ns();
	stderr_log_init(&sup->output, sup->name, now);
	log_limiter_init(&sup->rejected_reports, REJECTED_REPORT_BURST, REJECTED_REPORTS_PER_S, now);
	atomic_init(&sup->active, active);
	atomic_init(&sup->active_version, 1);
	snprintf(sup->summary, sizeof(sup->summary), "not started yet");

	if (!supervisor_threads_start(supervisor_thread, sup))
		goto fail_mutex;
	return sup;

fail_mutex:
	pthread_mutex_destroy(&sup->mutex);
fail_speech:
	newest_line_free(&sup->speech);
fail_obs:
	newest_line_free(&sup->obs);
fail_settings:
	newest_line_free(&sup->settings);
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
	supervisor_threads_join_ended();
}

bool renderer_supervisor_wait_all(unsigned timeout_ms)
{
	const unsigned still_running = supervisor_threads_wait_all(timeout_ms);
	if (still_running)
		plugin_log(LOG_ERROR, "%u renderer supervisor%s still stopping after %u ms; unloading anyway",
			   still_running, still_running == 1 ? " is" : "s are", timeout_ms);
	return still_running == 0;
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
	const bool changed = newest_line_set(&sup->settings, settings_line);
	pthread_mutex_lock(&sup->mutex);
	sup->settings_rejected = false;
	sup->want_width = width;
	sup->want_height = height;
	pthread_mutex_unlock(&sup->mutex);
	if (changed)
		wake(sup);
	return true;
}

void renderer_supervisor_set_obs_state(struct renderer_supervisor *sup, const char *obs_line)
{
	if (newest_line_set(&sup->obs, obs_line))
		wake(sup);
}

void renderer_supervisor_set_speech_state(struct renderer_supervisor *sup, const char *speech_line)
{
	if (newest_line_set(&sup->speech, speech_line))
		wake(sup);
}

void renderer_supervisor_set_active(struct renderer_supervisor *sup, bool active)
{
	atomic_store(&sup->active, active);
	atomic_fetch_add(&sup->active_version, 1);
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

