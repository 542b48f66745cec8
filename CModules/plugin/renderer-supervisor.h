/*
 * renderer-supervisor: one thread per Comment Bar source that owns the
 * `commentbar serve` child process and everything that can block: spawning,
 * writing its stdin, reading its stderr, reaping it, restarting it.
 *
 * OBS's threads only hand it requests (settings, active, size) and take the
 * current pool from it, without waiting: see the functions below.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frame-pool.h"

struct renderer_supervisor;

/* name is used in log lines; renderer_path is the `commentbar` executable. */
struct renderer_supervisor *renderer_supervisor_start(const char *name, const char *renderer_path, uint32_t width,
						      uint32_t height, const char *settings_line, bool active);
/* Closes the renderer's stdin, waits briefly, kills it if needed, reaps it and
 * joins the thread. Blocks for at most about a second. */
void renderer_supervisor_stop(struct renderer_supervisor *sup);

/* From OBS's threads. settings_line is one JSON object ending in '\n'.
 * A new width/height makes a new pool and a new renderer. Never blocks on I/O. */
void renderer_supervisor_set_settings(struct renderer_supervisor *sup, const char *settings_line, uint32_t width,
				      uint32_t height);
/* From video_tick (show/hide): lock-free. */
void renderer_supervisor_set_active(struct renderer_supervisor *sup, bool active);

/* From video_tick: if the current pool differs from *pool, replaces *pool with
 * a new reference to it (releasing the old one) and returns true. Uses a
 * trylock: when the lock is busy it returns false and the caller keeps its pool. */
bool renderer_supervisor_adopt_pool(struct renderer_supervisor *sup, struct frame_pool **pool);

/* A one-line summary of what the renderer is doing, for the properties view. */
void renderer_supervisor_describe(struct renderer_supervisor *sup, char *out, size_t out_size);

/* Counters for tests and the log. */
struct renderer_supervisor_stats {
	uint32_t spawns;
	uint32_t restarts_after_failure;
	int child_pid; /* 0 when none */
};
void renderer_supervisor_get_stats(struct renderer_supervisor *sup, struct renderer_supervisor_stats *stats);
