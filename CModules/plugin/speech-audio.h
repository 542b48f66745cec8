// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * speech-audio: the Comment Bar source's own audio. A thread of its own (never
 * the graphics thread) drains the pool's audio ring at the pace of real time
 * and hands the PCM to OBS with obs_source_output_audio, timestamps following
 * on from each other while speech plays and starting again after silence.
 * While the source's `speech` setting is off it sleeps (no wake-up at all) until
 * speech is turned on, a new pool arrives or the source goes.
 *
 * The graphics thread hands it each new pool (speech_audio_set_pool, lock-free);
 * destroy never waits for more than one obs_source_output_audio call. The thread
 * is counted by shim-threads, which joins it once it ended (at unload at the latest).
 */
#pragma once

#include <obs-module.h>

#include "frame-pool.h"

struct speech_audio;

/* name: the source's escaped name for the log; enabled: its `speech` setting. NULL if the
 * thread cannot start (logged). */
struct speech_audio *speech_audio_start(obs_source_t *source, const char *name, bool enabled);
/* The pool the renderer now writes (a new reference is taken); NULL: none. */
void speech_audio_set_pool(struct speech_audio *audio, struct frame_pool *pool);
/* The `speech` setting, from create and update: never blocks. NULL is fine. */
void speech_audio_set_enabled(struct speech_audio *audio, bool enabled);
/* After this returns, the source is never touched again; the thread frees itself. NULL is fine. */
void speech_audio_stop(struct speech_audio *audio);
