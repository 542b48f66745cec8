// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mic-watch: the state of the microphone a Comment Bar source shows, from the
 * OBS audio source its properties name ("" = OBS's first global Mic/Aux
 * channel): on, muted (muted, disabled, volume 0, push-to-talk not held,
 * push-to-mute held), none (no such source, or not an audio source) or
 * unknown (no name and no Mic/Aux channel), and optionally its level, which
 * the watch's mic-meter measures on the source it follows.
 *
 * It follows the source through renames, removal and re-creation and the
 * user's audio settings: per-source signals update the state at once; changes
 * to which source it is (created, removed, renamed, channel changed) are
 * resolved in mic_watch_tick, called from the source's video_tick.
 */
#pragma once

#include <stdbool.h>

#include "mic-meter.h" /* MIC_LEVEL_STEPS */

enum mic_state {
	MIC_STATE_UNKNOWN,
	MIC_STATE_NONE,
	MIC_STATE_ON,
	MIC_STATE_MUTED,
};

struct mic_watch;
/* Called (from OBS's signal, audio or graphics threads) when the state or level
 * changed; must not block. */
typedef void (*mic_watch_changed)(void *data);

/* Called (on the thread that renamed it, usually OBS's UI thread) when the source the
 * settings name was renamed: the watch follows it, and the caller updates its setting. */
typedef void (*mic_watch_renamed)(void *data, const char *new_name);

/* bar_name is for log lines. Without a running OBS core (a stub host) the watch
 * stays at unknown. renamed may be NULL. */
struct mic_watch *mic_watch_create(const char *bar_name, mic_watch_changed changed, mic_watch_renamed renamed,
				   void *data);
/* From update: which source, and whether to measure its level. */
void mic_watch_configure(struct mic_watch *watch, const char *source_name, bool meter);
/* From video_tick: resolves the source again if something may have changed it. */
void mic_watch_tick(struct mic_watch *watch);
/* level: 0..MIC_LEVEL_STEPS, or -1 when the meter is off. Any thread. */
void mic_watch_read(struct mic_watch *watch, enum mic_state *state, int *level);
const char *mic_state_name(enum mic_state state);
void mic_watch_destroy(struct mic_watch *watch);
