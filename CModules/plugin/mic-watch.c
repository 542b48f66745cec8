// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mic-watch: which OBS source is the bar's mic, and its state for the badge
 * (see mic-watch.h); its level is mic-meter's.
 *
 * Which thread touches which field:
 *   bar_name, changed, renamed, changed_data, core_signals, meter
 *                    set by create, read-only until destroy.
 *   wanted, level_wanted (mutex)
 *                    written by configure (the thread that updates the bar's settings,
 *                    usually OBS's UI thread) and, wanted only, by the watched source's
 *                    "rename" signal (the renaming thread); read by resolve (graphics thread).
 *   source (mutex)   written by the graphics thread (attach, detach) and by destroy, once the
 *                    bar no longer ticks; read by whichever thread computes the state.
 *   state (mutex)    written by update_state on OBS's signal threads (per-source signals), its
 *                    audio thread (the capture verdict) and the graphics thread (resolve);
 *                    read by mic_watch_read on any thread.
 *   logged_missing   the graphics thread only.
 *   dirty            set by OBS's signal threads and configure, cleared by tick (graphics). Atomic.
 *   capture_muted    written by the audio thread; reset by attach (graphics). Atomic.
 *   push_to_talk, push_to_mute, silent
 *                    written by their signals' threads and by attach (graphics). Atomic.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <obs-module.h>

#include "mic-meter.h"
#include "mic-watch.h"
#include "plugin-log.h"
#include "safe-text.h"

/* The global Mic/Aux channels of OBS's audio settings. */
#define FIRST_MIC_CHANNEL 3
#define LAST_MIC_CHANNEL 6

struct mic_watch {
	char *bar_name; /* escaped, for the log */
	mic_watch_changed changed;
	mic_watch_renamed renamed;
	void *changed_data;
	signal_handler_t *core_signals; /* NULL without a running OBS core */
	struct mic_meter *meter;        /* the level, measured while level_wanted and an audio source is watched */

	/* Guards what follows. Never held while connecting or disconnecting a signal
	 * or a callback: OBS holds its own lock while it calls ours, which take this one. */
	pthread_mutex_t mutex;
	char *wanted; /* the name from the properties; "" = first Mic/Aux channel */
	bool level_wanted; /* the meter setting */
	obs_source_t *source; /* the source watched (one reference), or NULL; set only by tick */
	enum mic_state state;

	/* Only the thread that calls mic_watch_tick (OBS's graphics thread) touches this. */
	bool logged_missing; /* one log line per missing name, not one per tick */

	atomic_bool dirty;          /* which source it is may have changed: resolve in tick */
	atomic_bool capture_muted;  /* OBS's own verdict on the last audio packet (push-to-talk) */
	/* Copies of the source's push-to-talk/mute switches: asking the source takes its
	 * audio lock, which OBS may hold while it calls us. */
	atomic_bool push_to_talk;
	atomic_bool push_to_mute;
	/* OBS signals "volume" before it stores the new volume: the handler keeps it here. */
	atomic_bool silent;
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
	mic_meter_set_heard(w->meter, next == MIC_STATE_ON); /* a mic not heard reads 0 */
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
	mic_meter_detach(w->meter);
	pthread_mutex_lock(&w->mutex);
	w->source = NULL;
	pthread_mutex_unlock(&w->mutex);
	obs_source_release(source);
}

/* Watches source (a new reference, given to the watch). Tick's thread, mutex not held. */
static void attach(struct mic_watch *w, obs_source_t *source, bool level_wanted)
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
	if (level_wanted && (obs_source_get_output_flags(source) & OBS_SOURCE_AUDIO))
		mic_meter_attach(w->meter, source);
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
	const bool level_wanted = w->level_wanted;
	obs_source_t *current = w->source;
	pthread_mutex_unlock(&w->mutex);
	if (!wanted)
		return;
	obs_source_t *found = find_source(wanted);
	const bool is_audio = found && (obs_source_get_output_flags(found) & OBS_SOURCE_AUDIO);
	const bool meter_matches = mic_meter_attached(w->meter) == (level_wanted && is_audio);
	if (found && found == current && meter_matches) {
		obs_source_release(found);
	} else {
		detach(w);
		if (found)
			attach(w, found, level_wanted);
	}
	mic_meter_settle(w->meter, level_wanted);
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
	w->meter = mic_meter_create(changed, data);
	if (!w->bar_name || !w->wanted || !w->meter) {
		mic_meter_destroy(w->meter);
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
	const bool changed = strcmp(wanted, w->wanted) != 0 || meter != w->level_wanted;
	if (changed) {
		free(w->wanted);
		w->wanted = wanted;
		w->level_wanted = meter;
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
	*level = mic_meter_level(w->meter);
}

void mic_watch_destroy(struct mic_watch *w)
{
	if (!w)
		return;
	if (w->core_signals)
		for (size_t i = 0; i < sizeof(core_signals) / sizeof(*core_signals); i++)
			signal_handler_disconnect(w->core_signals, core_signals[i], core_signal, w);
	detach(w);
	mic_meter_destroy(w->meter);
	pthread_mutex_destroy(&w->mutex);
	free(w->wanted);
	free(w->bar_name);
	free(w);
}
