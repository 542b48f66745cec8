// SPDX-License-Identifier: GPL-2.0-or-later
/* mic-watch: the microphone's state for the bar's badge (see mic-watch.h). */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <obs-module.h>

#include "mic-watch.h"
#include "plugin-log.h"
#include "safe-text.h"

/* The global Mic/Aux channels of OBS's audio settings. */
#define FIRST_MIC_CHANNEL 3
#define LAST_MIC_CHANNEL 6
/* The meter's range: -60 dBFS and below is silent, 0 dBFS is full. */
#define METER_FLOOR_DB -60.0f

struct mic_watch {
	char *bar_name; /* escaped, for the log */
	mic_watch_changed changed;
	mic_watch_renamed renamed;
	void *changed_data;
	signal_handler_t *core_signals; /* NULL without a running OBS core */

	/* Guards what follows. Never held while connecting or disconnecting a signal
	 * or a callback: OBS holds its own lock while it calls ours, which take this one. */
	pthread_mutex_t mutex;
	char *wanted; /* the name from the properties; "" = first Mic/Aux channel */
	bool meter;
	obs_source_t *source; /* the source watched (one reference), or NULL; set only by tick */
	enum mic_state state;

	/* Only the thread that calls mic_watch_tick (OBS's graphics thread) touches these. */
	obs_volmeter_t *volmeter;
	bool logged_missing; /* one log line per missing name, not one per tick */

	atomic_bool dirty;          /* which source it is may have changed: resolve in tick */
	atomic_bool capture_muted;  /* OBS's own verdict on the last audio packet (push-to-talk) */
	/* Copies of the source's push-to-talk/mute switches: asking the source takes its
	 * audio lock, which OBS may hold while it calls us. */
	atomic_bool push_to_talk;
	atomic_bool push_to_mute;
	/* OBS signals "volume" before it stores the new volume: the handler keeps it here. */
	atomic_bool silent;
	/* The state as last computed, for the audio thread's meter (a muted mic reads 0). */
	atomic_bool muted_now;
	atomic_int level;           /* -1: no meter */
};

const char *mic_state_name(enum mic_state state)
{
	switch (state) {
	case MIC_STATE_NONE:
		return "none";
	case MIC_STATE_ON:
		return "on";
	case MIC_STATE_MUTED:
		return "muted";
	case MIC_STATE_UNKNOWN:
	default:
		return "unknown";
	}
}

/* The state of the watched source; mutex held. */
static enum mic_state compute_locked(struct mic_watch *w)
{
	obs_source_t *source = w->source;
	if (!source)
		return w->wanted[0] ? MIC_STATE_NONE : MIC_STATE_UNKNOWN;
	if (!(obs_source_get_output_flags(source) & OBS_SOURCE_AUDIO))
		return MIC_STATE_NONE;
	if (obs_source_muted(source) || !obs_source_enabled(source) || atomic_load(&w->silent))
		return MIC_STATE_MUTED;
	/* Push-to-talk and push-to-mute keys are known only to OBS's audio path: it
	 * tells each audio packet's capture callback whether the packet is muted. */
	if ((atomic_load(&w->push_to_talk) || atomic_load(&w->push_to_mute)) && atomic_load(&w->capture_muted))
		return MIC_STATE_MUTED;
	return MIC_STATE_ON;
}

static void update_state(struct mic_watch *w)
{
	pthread_mutex_lock(&w->mutex);
	const enum mic_state next = compute_locked(w);
	const bool changed = next != w->state;
	w->state = next;
	atomic_store(&w->muted_now, next != MIC_STATE_ON);
	pthread_mutex_unlock(&w->mutex);
	if (changed)
		w->changed(w->changed_data);
}

/* ---- signals of the watched source: its state changed ---- */

static void source_state_signal(void *data, calldata_t *params)
{
	(void)params;
	update_state(data);
}

static void volume_signal(void *data, calldata_t *params)
{
	struct mic_watch *w = data;
	atomic_store(&w->silent, calldata_float(params, "volume") <= 0.0f);
	update_state(w);
}

static void push_to_talk_signal(void *data, calldata_t *params)
{
	struct mic_watch *w = data;
	atomic_store(&w->push_to_talk, calldata_bool(params, "enabled"));
	update_state(w);
}

static void push_to_mute_signal(void *data, calldata_t *params)
{
	struct mic_watch *w = data;
	atomic_store(&w->push_to_mute, calldata_bool(params, "enabled"));
	update_state(w);
}

/* Renamed, removed or destroyed: which source it is must be resolved again. */
static void source_identity_signal(void *data, calldata_t *params)
{
	(void)params;
	struct mic_watch *w = data;
	atomic_store(&w->dirty, true);
}

static void audio_capture(void *data, obs_source_t *source, const struct audio_data *audio, bool muted)
{
	(void)source;
	(void)audio;
	struct mic_watch *w = data;
	if (atomic_exchange(&w->capture_muted, muted) != muted)
		update_state(w);
}

static void volmeter_update(void *data, const float magnitude[MAX_AUDIO_CHANNELS], const float peak[MAX_AUDIO_CHANNELS],
			    const float input_peak[MAX_AUDIO_CHANNELS])
{
	(void)magnitude;
	(void)input_peak;
	struct mic_watch *w = data;
	float loudest = -INFINITY;
	for (int i = 0; i < MAX_AUDIO_CHANNELS; i++)
		if (isfinite(peak[i]) && peak[i] > loudest)
			loudest = peak[i];
	int step = 0;
	/* OBS meters a muted source as if it were not: the bar's meter says what is heard. */
	if (loudest > METER_FLOOR_DB && !atomic_load(&w->muted_now))
		step = (int)lroundf((loudest - METER_FLOOR_DB) / -METER_FLOOR_DB * MIC_LEVEL_STEPS);
	step = step < 0 ? 0 : step > MIC_LEVEL_STEPS ? MIC_LEVEL_STEPS : step;
	/* Only a visible step is news: a silent mic makes no frames. */
	if (atomic_exchange(&w->level, step) != step)
		w->changed(w->changed_data);
}

/* The watched source has a new name: a named watch follows it (an empty name follows the
 * Mic/Aux channel, not a name). */
static void source_renamed_signal(void *data, calldata_t *params)
{
	struct mic_watch *w = data;
	const char *new_name = calldata_string(params, "new_name");
	char *copy = new_name && *new_name ? strdup(new_name) : NULL;
	bool follow = false;
	pthread_mutex_lock(&w->mutex);
	if (copy && w->wanted[0]) {
		free(w->wanted);
		w->wanted = copy;
		copy = NULL;
		follow = true;
	}
	pthread_mutex_unlock(&w->mutex);
	free(copy);
	atomic_store(&w->dirty, true);
	if (follow && w->renamed)
		w->renamed(w->changed_data, new_name);
}

static const char *const state_signals[] = {"mute", "enable"};
static const char *const identity_signals[] = {"remove", "destroy"};

/* Stops watching the current source. Tick's thread, mutex not held: once the
 * disconnects return, no handler of ours runs for that source any more. */
static void detach(struct mic_watch *w)
{
	pthread_mutex_lock(&w->mutex);
	obs_source_t *source = w->source;
	pthread_mutex_unlock(&w->mutex);
	if (!source)
		return;
	signal_handler_t *signals = obs_source_get_signal_handler(source);
	for (size_t i = 0; i < sizeof(state_signals) / sizeof(*state_signals); i++)
		signal_handler_disconnect(signals, state_signals[i], source_state_signal, w);
	for (size_t i = 0; i < sizeof(identity_signals) / sizeof(*identity_signals); i++)
		signal_handler_disconnect(signals, identity_signals[i], source_identity_signal, w);
	signal_handler_disconnect(signals, "volume", volume_signal, w);
	signal_handler_disconnect(signals, "rename", source_renamed_signal, w);
	signal_handler_disconnect(signals, "push_to_talk_changed", push_to_talk_signal, w);
	signal_handler_disconnect(signals, "push_to_mute_changed", push_to_mute_signal, w);
	obs_source_remove_audio_capture_callback(source, audio_capture, w);
	if (w->volmeter) {
		obs_volmeter_remove_callback(w->volmeter, volmeter_update, w);
		obs_volmeter_destroy(w->volmeter);
		w->volmeter = NULL;
	}
	pthread_mutex_lock(&w->mutex);
	w->source = NULL;
	pthread_mutex_unlock(&w->mutex);
	obs_source_release(source);
}

/* Watches source (a new reference, given to the watch). Tick's thread, mutex not held. */
static void attach(struct mic_watch *w, obs_source_t *source, bool meter)
{
	atomic_store(&w->capture_muted, false);
	atomic_store(&w->push_to_talk, obs_source_push_to_talk_enabled(source));
	atomic_store(&w->push_to_mute, obs_source_push_to_mute_enabled(source));
	atomic_store(&w->silent, obs_source_get_volume(source) <= 0.0f);
	pthread_mutex_lock(&w->mutex);
	w->source = source;
	pthread_mutex_unlock(&w->mutex);
	signal_handler_t *signals = obs_source_get_signal_handler(source);
	signal_handler_connect(signals, "volume", volume_signal, w);
	signal_handler_connect(signals, "rename", source_renamed_signal, w);
	signal_handler_connect(signals, "push_to_talk_changed", push_to_talk_signal, w);
	signal_handler_connect(signals, "push_to_mute_changed", push_to_mute_signal, w);
	for (size_t i = 0; i < sizeof(state_signals) / sizeof(*state_signals); i++)
		signal_handler_connect(signals, state_signals[i], source_state_signal, w);
	for (size_t i = 0; i < sizeof(identity_signals) / sizeof(*identity_signals); i++)
		signal_handler_connect(signals, identity_signals[i], source_identity_signal, w);
	obs_source_add_audio_capture_callback(source, audio_capture, w);
	if (meter && (obs_source_get_output_flags(source) & OBS_SOURCE_AUDIO)) {
		w->volmeter = obs_volmeter_create(OBS_FADER_LOG);
		obs_volmeter_add_callback(w->volmeter, volmeter_update, w);
		obs_volmeter_attach_source(w->volmeter, source);
	}
}

/* The source the settings name, as a new reference, or NULL. */
static obs_source_t *find_source(const char *wanted)
{
	if (!wanted[0]) {
		for (uint32_t channel = FIRST_MIC_CHANNEL; channel <= LAST_MIC_CHANNEL; channel++) {
			obs_source_t *source = obs_get_output_source(channel);
			if (source)
				return source;
		}
		return NULL;
	}
	obs_source_t *source = obs_get_source_by_name(wanted);
	if (source && obs_source_removed(source)) {
		obs_source_release(source);
		return NULL;
	}
	return source;
}

/* Finds the source the settings name and watches it. Tick's thread only. */
static void resolve(struct mic_watch *w)
{
	if (!w->core_signals)
		return;
	pthread_mutex_lock(&w->mutex);
	char *wanted = strdup(w->wanted);
	const bool meter = w->meter;
	obs_source_t *current = w->source;
	pthread_mutex_unlock(&w->mutex);
	if (!wanted)
		return;
	obs_source_t *found = find_source(wanted);
	const bool is_audio = found && (obs_source_get_output_flags(found) & OBS_SOURCE_AUDIO);
	const bool meter_matches = (w->volmeter != NULL) == (meter && is_audio);
	if (found && found == current && meter_matches) {
		obs_source_release(found);
	} else {
		detach(w);
		if (found)
			attach(w, found, meter);
	}
	if (!meter)
		atomic_store(&w->level, -1);
	else if (!w->volmeter || atomic_load(&w->level) < 0)
		atomic_store(&w->level, 0);
	const bool missing = wanted[0] && !is_audio;
	if (missing && !w->logged_missing) {
		char shown[SAFE_TEXT_LOG_SIZE];
		safe_text_escape_string(shown, sizeof(shown), wanted);
		source_log(LOG_WARNING, w->bar_name, "microphone %s: %s: the mic badge shows \"no mic\"", shown,
			   found ? "not an audio source" : "no such source");
	}
	w->logged_missing = missing;
	free(wanted);
	update_state(w);
	w->changed(w->changed_data);
}

/* ---- OBS-wide signals: a source appeared, went or changed its name ---- */

static void core_signal(void *data, calldata_t *params)
{
	(void)params;
	struct mic_watch *w = data;
	atomic_store(&w->dirty, true);
}

static const char *const core_signals[] = {"source_create", "source_remove", "source_rename", "channel_change"};

struct mic_watch *mic_watch_create(const char *bar_name, mic_watch_changed changed, mic_watch_renamed renamed,
				   void *data)
{
	struct mic_watch *w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	char shown[SAFE_TEXT_LOG_SIZE];
	safe_text_escape_string(shown, sizeof(shown), bar_name ? bar_name : "");
	w->bar_name = strdup(shown);
	w->wanted = strdup("");
	if (!w->bar_name || !w->wanted) {
		free(w->bar_name);
		free(w->wanted);
		free(w);
		return NULL;
	}
	w->changed = changed;
	w->renamed = renamed;
	w->changed_data = data;
	pthread_mutex_init(&w->mutex, NULL);
	atomic_init(&w->dirty, true);
	atomic_init(&w->capture_muted, false);
	atomic_init(&w->push_to_talk, false);
	atomic_init(&w->push_to_mute, false);
	atomic_init(&w->silent, false);
	atomic_init(&w->muted_now, true);
	atomic_init(&w->level, -1);
	w->core_signals = obs_get_signal_handler();
	if (w->core_signals)
		for (size_t i = 0; i < sizeof(core_signals) / sizeof(*core_signals); i++)
			signal_handler_connect(w->core_signals, core_signals[i], core_signal, w);
	return w;
}

void mic_watch_configure(struct mic_watch *w, const char *source_name, bool meter)
{
	char *wanted = strdup(source_name ? source_name : "");
	if (!wanted)
		return;
	pthread_mutex_lock(&w->mutex);
	const bool changed = strcmp(wanted, w->wanted) != 0 || meter != w->meter;
	if (changed) {
		free(w->wanted);
		w->wanted = wanted;
		w->meter = meter;
	}
	pthread_mutex_unlock(&w->mutex);
	if (!changed)
		free(wanted);
	else
		atomic_store(&w->dirty, true); /* resolved by the next tick, on the graphics thread */
}

void mic_watch_tick(struct mic_watch *w)
{
	if (atomic_exchange(&w->dirty, false))
		resolve(w);
}

void mic_watch_read(struct mic_watch *w, enum mic_state *state, int *level)
{
	pthread_mutex_lock(&w->mutex);
	*state = w->state;
	pthread_mutex_unlock(&w->mutex);
	*level = atomic_load(&w->level);
}

void mic_watch_destroy(struct mic_watch *w)
{
	if (!w)
		return;
	if (w->core_signals)
		for (size_t i = 0; i < sizeof(core_signals) / sizeof(*core_signals); i++)
			signal_handler_disconnect(w->core_signals, core_signals[i], core_signal, w);
	detach(w);
	pthread_mutex_destroy(&w->mutex);
	free(w->wanted);
	free(w->bar_name);
	free(w);
}
