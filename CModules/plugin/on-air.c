// SPDX-License-Identifier: GPL-2.0-or-later
/* on-air: OBS's streaming and recording state from the frontend API (see on-air.h). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <obs-frontend-api.h>
#include <obs-module.h>

#include "on-air.h"
#include "plugin-log.h"

#define FRONTEND_LIBRARY "libobs-frontend-api.so.0"
#define MAX_LISTENERS 256

/* The few frontend functions used, looked up by name: nothing links against the library. */
struct frontend_api {
	void *library;
	void (*add_event_callback)(obs_frontend_event_cb callback, void *data);
	void (*remove_event_callback)(obs_frontend_event_cb callback, void *data);
	bool (*streaming_active)(void);
	bool (*recording_active)(void);
	obs_output_t *(*get_streaming_output)(void);
	obs_output_t *(*get_recording_output)(void);
};

static struct frontend_api api;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static struct on_air_state state; /* guarded by mutex */
static struct {
	on_air_listener listener;
	void *data;
} listeners[MAX_LISTENERS]; /* guarded by mutex */
static size_t listener_count;

static double unix_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* When the output started, from the frames it has sent: right also for an
 * output that was already running before we looked. */
static double output_start(obs_output_t *(*get_output)(void))
{
	const double now = unix_now();
	obs_output_t *output = get_output ? get_output() : NULL;
	if (!output)
		return now;
	const int frames = obs_output_get_total_frames(output);
	obs_output_release(output);
	struct obs_video_info video;
	if (frames <= 0 || !obs_get_video_info(&video) || video.fps_num == 0)
		return now;
	return now - (double)frames * (double)video.fps_den / (double)video.fps_num;
}

static void notify_locked(void)
{
	for (size_t i = 0; i < listener_count; i++)
		listeners[i].listener(listeners[i].data, &state);
}

/* Brings the state up to what the frontend says now. A start already known is
 * kept while the output stays active (OBS's reconnects included). */
static void refresh(void)
{
	const bool streaming = api.streaming_active();
	const bool recording = api.recording_active();
	const double streaming_start = streaming ? output_start(api.get_streaming_output) : 0;
	const double recording_start = recording ? output_start(api.get_recording_output) : 0;

	pthread_mutex_lock(&mutex);
	struct on_air_state next = state;
	next.frontend = true;
	next.streaming = streaming;
	next.streaming_start = streaming ? (state.streaming ? state.streaming_start : streaming_start) : 0;
	next.recording = recording;
	next.recording_start = recording ? (state.recording ? state.recording_start : recording_start) : 0;
	const bool changed = memcmp(&next, &state, sizeof(next)) != 0;
	state = next;
	if (changed)
		notify_locked();
	pthread_mutex_unlock(&mutex);
}

static void frontend_event(enum obs_frontend_event event, void *data)
{
	(void)data;
	switch (event) {
	case OBS_FRONTEND_EVENT_STREAMING_STARTED:
	case OBS_FRONTEND_EVENT_STREAMING_STOPPED:
	case OBS_FRONTEND_EVENT_RECORDING_STARTED:
	case OBS_FRONTEND_EVENT_RECORDING_STOPPED:
	case OBS_FRONTEND_EVENT_FINISHED_LOADING:
	case OBS_FRONTEND_EVENT_SCENE_COLLECTION_CHANGED:
		refresh();
		break;
	default:
		break;
	}
}

static bool load_frontend(void)
{
	/* RTLD_NOLOAD: only a library the host already has. Loading it into a host
	 * without a frontend would give functions that only log errors. */
	api.library = dlopen(FRONTEND_LIBRARY, RTLD_NOW | RTLD_NOLOAD);
	if (!api.library)
		return false;
	api.add_event_callback = (void (*)(obs_frontend_event_cb, void *))dlsym(api.library, "obs_frontend_add_event_callback");
	api.remove_event_callback =
		(void (*)(obs_frontend_event_cb, void *))dlsym(api.library, "obs_frontend_remove_event_callback");
	api.streaming_active = (bool (*)(void))dlsym(api.library, "obs_frontend_streaming_active");
	api.recording_active = (bool (*)(void))dlsym(api.library, "obs_frontend_recording_active");
	api.get_streaming_output = (obs_output_t * (*)(void)) dlsym(api.library, "obs_frontend_get_streaming_output");
	api.get_recording_output = (obs_output_t * (*)(void)) dlsym(api.library, "obs_frontend_get_recording_output");
	if (api.add_event_callback && api.remove_event_callback && api.streaming_active && api.recording_active &&
	    api.get_streaming_output && api.get_recording_output)
		return true;
	dlclose(api.library);
	memset(&api, 0, sizeof(api));
	return false;
}

void on_air_start(void)
{
	if (!load_frontend()) {
		plugin_log(LOG_INFO, "no OBS frontend in this host (%s is not loaded): the bar's on-air badge shows "
				     "OFF AIR and its clock follows the feed",
			   FRONTEND_LIBRARY);
		return;
	}
	api.add_event_callback(frontend_event, NULL);
	pthread_mutex_lock(&mutex);
	state.frontend = true;
	pthread_mutex_unlock(&mutex);
	plugin_log(LOG_INFO, "the bar's on-air badge and clock follow OBS's streaming and recording");
}

void on_air_stop(void)
{
	if (!api.library)
		return;
	api.remove_event_callback(frontend_event, NULL);
	dlclose(api.library);
	memset(&api, 0, sizeof(api));
	pthread_mutex_lock(&mutex);
	memset(&state, 0, sizeof(state));
	pthread_mutex_unlock(&mutex);
}

struct on_air_state on_air_get(void)
{
	pthread_mutex_lock(&mutex);
	const struct on_air_state copy = state;
	pthread_mutex_unlock(&mutex);
	return copy;
}

void on_air_listen(on_air_listener listener, void *data)
{
	pthread_mutex_lock(&mutex);
	if (listener_count < MAX_LISTENERS) {
		listeners[listener_count].listener = listener;
		listeners[listener_count].data = data;
		listener_count++;
	} else {
		plugin_log(LOG_WARNING, "more than %d Comment Bar sources: the newest do not follow OBS's on-air state",
			   MAX_LISTENERS);
	}
	pthread_mutex_unlock(&mutex);
}

void on_air_unlisten(on_air_listener listener, void *data)
{
	pthread_mutex_lock(&mutex);
	for (size_t i = 0; i < listener_count; i++) {
		if (listeners[i].listener == listener && listeners[i].data == data) {
			listeners[i] = listeners[--listener_count];
			break;
		}
	}
	pthread_mutex_unlock(&mutex);
}
