// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * on-air: whether OBS is streaming or recording, and since when, for every
 * Comment Bar source of the process.
 *
 * It reads OBS's frontend API, loaded with dlopen(RTLD_NOLOAD): the frontend
 * library is used only when the host (OBS itself) already loaded it, so the
 * module loads and works in hosts without a frontend (the stub host, the
 * libobs test host). There the feature is off, with one log line: the bar's
 * on-air badge shows OFF AIR and its clock follows the feed.
 *
 * A start time comes from the output's total frames x the frame interval (as
 * obs-websocket computes a stream's duration), so a source created mid-stream
 * and a module that sees the output already running get the true start. OBS's
 * own reconnects keep the start; a stop and a new start reset it.
 */
#pragma once

#include <stdbool.h>

struct on_air_state {
	bool frontend;          /* false: OBS's state is not known in this host */
	bool streaming;
	double streaming_start; /* unix seconds; 0 while not streaming */
	bool recording;
	double recording_start;
};

typedef void (*on_air_listener)(void *data, const struct on_air_state *state);

/* Module load and unload (OBS's UI thread). */
void on_air_start(void);
void on_air_stop(void);

/* Any thread. */
struct on_air_state on_air_get(void);
/* The listener is called (on the thread that saw the change, with no OBS lock of
 * ours held but on-air's own) whenever the state changes; it must not block and
 * must not call on_air_*. */
void on_air_listen(on_air_listener listener, void *data);
void on_air_unlisten(on_air_listener listener, void *data);
