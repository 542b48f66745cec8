// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bar-live-state: what OBS itself says, for one Comment Bar source's renderer:
 * streaming and recording (on-air, shared by every bar), the state of the
 * microphone this bar's properties name (mic-watch), and OBS's UI locale (fixed
 * while OBS runs). Whenever the first two change it hands the supervisor a new
 * {"obs":{...}} line; the supervisor sends only the newest one
 * (docs/architecture.md, "The renderer's stdin").
 */
#pragma once

#include <stdbool.h>

struct bar_live_state;
struct renderer_supervisor;

/* The supervisor must outlive the bar_live_state. mic_renamed (may be NULL) is told the
 * new name when the mic the settings name is renamed. NULL when out of memory. */
struct bar_live_state *bar_live_state_create(const char *bar_name, struct renderer_supervisor *supervisor,
					     void (*mic_renamed)(void *data, const char *new_name), void *data);
/* From create and update: the mic_source and mic_meter settings. */
void bar_live_state_configure(struct bar_live_state *live, const char *mic_source, bool mic_meter);
/* From video_tick. */
void bar_live_state_tick(struct bar_live_state *live);
void bar_live_state_destroy(struct bar_live_state *live);
