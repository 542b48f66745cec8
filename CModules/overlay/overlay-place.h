// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay-place.h: where the overlay goes on a monitor, and how big it is. */
#ifndef COMMENTBAR_OVERLAY_PLACE_H
#define COMMENTBAR_OVERLAY_PLACE_H

#include "overlay-input.h"

#include <stdint.h>

struct overlay_rect {
	int x, y, width, height;
};

/* The frame scaled by settings->scale (never larger than the monitor), in settings->corner of
 * `monitor`, settings->margin pixels from its edges (less when the monitor is too small). */
struct overlay_rect overlay_place(struct overlay_rect monitor, uint32_t frame_width, uint32_t frame_height,
				  const struct overlay_settings *settings);

#endif
