// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay-input.h: the renderer's lines on the helper's stdin (docs/architecture.md, "The overlay"):
 *   {"corner":"bottom_right","scale":50,"opacity":90,"margin":24}   where and how big
 *   {"frame":N}                                                      frame N was published
 * EOF means the renderer is gone: the helper exits. */
#ifndef COMMENTBAR_OVERLAY_INPUT_H
#define COMMENTBAR_OVERLAY_INPUT_H

#include <stdbool.h>
#include <stddef.h>

enum overlay_corner { OVERLAY_TOP_LEFT, OVERLAY_TOP_RIGHT, OVERLAY_BOTTOM_LEFT, OVERLAY_BOTTOM_RIGHT };

struct overlay_settings {
	enum overlay_corner corner;
	int scale;   /* percent of the frame size, 25..200 */
	int opacity; /* percent, 10..100 */
	int margin;  /* pixels from the monitor's edges, 0..500 */
};

/* The settings table's defaults (CModules/CommentBarSettings). */
#define OVERLAY_SETTINGS_DEFAULT {OVERLAY_BOTTOM_RIGHT, 50, 90, 24}

#define OVERLAY_LINE_MAX 1024

struct overlay_input {
	char line[OVERLAY_LINE_MAX];
	size_t length;
	bool discarding; /* inside a line too long to be ours: dropped up to its newline */
};

struct overlay_news {
	bool settings_changed;
	bool frame_published;
};

/* Reads what `fd` has now (non-blocking) and applies whole lines; false at end of input. */
bool overlay_input_read(struct overlay_input *in, int fd, struct overlay_settings *settings,
			struct overlay_news *news);

/* Applies one line; unknown keys and bad values are ignored, numbers are clamped. */
void overlay_input_apply(const char *line, struct overlay_settings *settings, struct overlay_news *news);

#endif
