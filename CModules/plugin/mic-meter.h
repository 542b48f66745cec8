// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mic-meter: the level of the microphone a mic-watch follows, in steps, for
 * the bar's meter. It measures with OBS's own obs_volmeter (the peak of the
 * loudest channel, -60 dBFS = 0 to 0 dBFS = MIC_LEVEL_STEPS) and reports only
 * a change of a whole step, so a silent mic makes no frames. A mic that is not
 * heard (muted, push-to-talk not held, ...) reads 0: OBS meters a muted
 * source as if it were not.
 *
 * mic-watch owns it: it attaches the meter to the source it follows and
 * detaches it on the graphics thread (mic_watch_tick), and tells it whether
 * the mic is heard whenever it computes the mic's state.
 */
#pragma once

#include <stdbool.h>

/* The level meter's steps: 0 (silent) to MIC_LEVEL_STEPS. */
#define MIC_LEVEL_STEPS 10

struct mic_meter;
struct obs_source;

/* Called from the audio thread when the level moved by a step; must not block. */
typedef void (*mic_meter_changed)(void *data);

/* Reads -1 (no meter) and not heard until told otherwise. NULL when out of memory. */
struct mic_meter *mic_meter_create(mic_meter_changed changed, void *data);
/* Graphics thread: measures source (an audio source; the caller keeps its reference
 * until mic_meter_detach). */
void mic_meter_attach(struct mic_meter *meter, struct obs_source *source);
/* Graphics thread: stops measuring; once it returns, changed is not called for the
 * source any more. Nothing attached is fine. */
void mic_meter_detach(struct mic_meter *meter);
/* Graphics thread: whether a source is being measured. */
bool mic_meter_attached(struct mic_meter *meter);
/* Graphics thread, after the watch (re)chose its source: whether the settings ask for
 * a level. Off, the level reads -1; on, -1 becomes 0, and it stays 0 while nothing is
 * measured (no audio source). */
void mic_meter_settle(struct mic_meter *meter, bool wanted);
/* Any thread: whether the mic is heard now (its state is "on"). */
void mic_meter_set_heard(struct mic_meter *meter, bool heard);
/* Any thread: 0..MIC_LEVEL_STEPS, or -1 when the meter is off. */
int mic_meter_level(struct mic_meter *meter);
/* Detaches first. NULL is fine. */
void mic_meter_destroy(struct mic_meter *meter);
