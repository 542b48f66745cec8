// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * renderer-supervisor: one thread per Comment Bar source that owns the
 * `commentbar serve` child process and everything that can block: spawning,
 * writing its stdin, reading its stderr, reaping it, restarting it, stopping it.
 *
 * OBS's threads only hand it requests (the stdin channels' lines, size, stop) and take
 * the current pool from it, without waiting: see the functions below.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frame-pool.h"
#include "renderer-input.h"

struct renderer_supervisor;

/* name is used in log lines; renderer_path is the `commentbar` executable. The renderer
 * gets settings_line first, then the other channels' lines as they are sent. Never blocks. */
struct renderer_supervisor *renderer_supervisor_start(const char *name, const char *renderer_path, uint32_t width,
						      uint32_t height, const char *settings_line);
/* Asks the supervisor to stop and returns at once: its thread then closes the
 * renderer's stdin, gives it 0.5 s to exit, kills it if needed, reaps it and
 * frees everything, itself included. sup must not be used afterwards.
 * Safe on any OBS thread (the last release of a source can happen on the
 * graphics thread). */
void renderer_supervisor_stop(struct renderer_supervisor *sup);

/* From OBS's threads. settings_line is one JSON object ending in '\n'.
 * A new width/height makes a new pool and a new renderer. Never blocks on I/O.
 * Returns false, changing nothing (size included), when the line is longer
 * than RENDERER_SETTINGS_LINE_MAX: the log and describe() then say so. */
bool renderer_supervisor_set_settings(struct renderer_supervisor *sup, const char *settings_line, uint32_t width,
				      uint32_t height);
/* A line of any other channel (renderer-input.h), ending in '\n'. Any thread; never
 * blocks on I/O; the newest line replaces one not written yet, and a line equal to the
 * channel's last one is not sent again. */
void renderer_supervisor_send(struct renderer_supervisor *sup, enum renderer_channel channel, const char *line);

/* From video_tick: if the current pool differs from *pool, replaces *pool with
 * a new reference to it (releasing the old one) and returns true. Uses a
 * trylock: when the lock is busy it returns false and the caller keeps its pool. */
bool renderer_supervisor_adopt_pool(struct renderer_supervisor *sup, struct frame_pool **pool);

/* A one-line summary of what the renderer is doing, for the properties view. */
void renderer_supervisor_describe(struct renderer_supervisor *sup, char *out, size_t out_size);
