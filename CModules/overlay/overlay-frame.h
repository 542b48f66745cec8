// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay-frame.h: the helpers' copy of the newest frame, and how it is painted (Cairo). */
#ifndef COMMENTBAR_OVERLAY_FRAME_H
#define COMMENTBAR_OVERLAY_FRAME_H

#include "commentbar_pool.h"
#include "overlay-pool.h"

#include <cairo.h>
#include <stdbool.h>

/* Exit statuses the renderer's overlay supervisor reads (Sources/CommentBarOverlay). */
enum overlay_exit {
	OVERLAY_EXIT_DONE = 0,          /* stdin closed: the renderer let us go */
	OVERLAY_EXIT_CANNOT_START = 2,  /* no display, a bad pool, a missing extension */
	OVERLAY_EXIT_DISPLAY_LOST = 3,  /* the display went away */
	OVERLAY_EXIT_NO_LAYER_SHELL = 4, /* Wayland without wlr-layer-shell: use the X11 helper (XWayland) */
	OVERLAY_EXIT_RESTART = 5,       /* a compositor came or went: start again at once with the right visual */
};

struct overlay_frame {
	/* One Cairo image per pool slot, over the read-only mapping: the frame is never copied. */
	cairo_surface_t *slots[CB_POOL_SLOTS];
	unsigned slot;  /* the slot of the frame shown */
	uint64_t seen;  /* its sequence; 0: none yet */
};

/* Reads `--pool-fd N` from the arguments; -1 when missing or bad. */
int overlay_pool_fd_argument(int argc, char **argv);

bool overlay_frame_init(struct overlay_frame *frame, const struct overlay_pool *pool);

/* Takes the newest frame of the pool if it is newer than the one shown; true when it changed. */
bool overlay_frame_refresh(struct overlay_frame *frame, const struct overlay_pool *pool);

/* Paints the frame scaled to width x height at `opacity` percent (on a surface without alpha,
 * no compositor, the transparent parts show a dark panel), then flushes `cr`'s target. When the
 * renderer moved on while it was read, it forgets the frame (the next refresh takes the newer
 * one, whose notice is on the way) and returns false. */
bool overlay_frame_paint(struct overlay_frame *frame, const struct overlay_pool *pool, cairo_t *cr, int width,
			 int height, int opacity, bool has_alpha);

void overlay_frame_free(struct overlay_frame *frame);

#endif
