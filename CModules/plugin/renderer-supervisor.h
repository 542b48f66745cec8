// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * renderer-supervisor: one thread per Comment Bar source that owns the
 * `commentbar serve` child process and everything that can block: spawning,
 * writing its stdin, reading its stderr, reaping it, restarting it, stopping it.
 *
 * OBS's threads only hand it requests (settings, active, size, stop) and take
 * the current pool from it, without waiting: see the functions below.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frame-pool.h"

struct renderer_supervisor;
struct obs_data;

/* The longest settings line (with its '\n') the shim sends. A longer one is not
 * sent: the renderer keeps the previous settings, the log and the source's
 * status say why. */
#define RENDERER_SETTINGS_LINE_MAX (1024 * 1024) /* room for a list of 10,000 NG words */

/* name is used in log lines; renderer_path is the `commentbar` executable.
 * Never blocks. */
struct renderer_supervisor *renderer_supervisor_start(const char *name, const char *renderer_path, uint32_t width,
						      uint32_t height, const char *settings_line, bool active);
/* Asks the supervisor to stop and returns at once: its thread then closes the
 * renderer's stdin, gives it 0.5 s to exit, kills it if needed, reaps it and
 * frees everything, itself included. sup must not be used afterwards.
 * Safe on any OBS thread (the last release of a source can happen on the
 * graphics thread). */
void renderer_supervisor_stop(struct renderer_supervisor *sup);
/* Module unload: waits up to timeout_ms for every supervisor that was asked to
 * stop to finish, and joins their threads. Returns false, after logging, if
 * some are still running when the time is up. */
bool renderer_supervisor_wait_all(unsigned timeout_ms);

/* From OBS's threads. settings_line is one JSON object ending in '\n'.
 * A new width/height makes a new pool and a new renderer. Never blocks on I/O.
 * Returns false, changing nothing (size included), when the line is longer
 * than RENDERER_SETTINGS_LINE_MAX: the log and describe() then say so. */
bool renderer_supervisor_set_settings(struct renderer_supervisor *sup, const char *settings_line, uint32_t width,
				      uint32_t height);
/* OBS's own state for the renderer: one {"obs":{...}} line ending in '\n'.
 * Any thread; never blocks on I/O; a line equal to the last one is not sent again. */
void renderer_supervisor_set_obs_state(struct renderer_supervisor *sup, const char *obs_line);
/* The reading hotkeys' state for the renderer: one {"speech":{...}} line ending in '\n'.
 * Any thread; never blocks on I/O; the newest line replaces one not sent yet. */
void renderer_supervisor_set_speech_state(struct renderer_supervisor *sup, const char *speech_line);
/* From show/hide: lock-free. */
void renderer_supervisor_set_active(struct renderer_supervisor *sup, bool active);

/* From video_tick: if the current pool differs from *pool, replaces *pool with
 * a new reference to it (releasing the old one) and returns true. Uses a
 * trylock: when the lock is busy it returns false and the caller keeps its pool. */
bool renderer_supervisor_adopt_pool(struct renderer_supervisor *sup, struct frame_pool **pool);

/* A one-line summary of what the renderer is doing, for the properties view. */
void renderer_supervisor_describe(struct renderer_supervisor *sup, char *out, size_t out_size);

/* One stdin line from an obs_data object: its compact JSON, any raw newline
 * flattened, with a final '\n'. bfree() it. */
char *renderer_supervisor_json_line(struct obs_data *data);
