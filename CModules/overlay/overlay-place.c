// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay-place.c: the overlay's rectangle. */
#include "overlay-place.h"

static int scaled(uint32_t size, int percent)
{
	long long value = (long long)size * percent / 100;
	return value < 1 ? 1 : value > 16384 ? 16384 : (int)value;
}

struct overlay_rect overlay_place(struct overlay_rect monitor, uint32_t frame_width, uint32_t frame_height,
				  const struct overlay_settings *settings)
{
	struct overlay_rect r = {0, 0, scaled(frame_width, settings->scale), scaled(frame_height, settings->scale)};
	if (monitor.width > 0 && r.width > monitor.width) {
		/* Too wide for the monitor: shrink, keeping the bar's proportions. */
		r.height = (int)((long long)r.height * monitor.width / r.width);
		r.width = monitor.width;
	}
	if (monitor.height > 0 && r.height > monitor.height) {
		r.width = (int)((long long)r.width * monitor.height / r.height);
		r.height = monitor.height;
	}
	if (r.width < 1)
		r.width = 1;
	if (r.height < 1)
		r.height = 1;
	int spare_x = monitor.width - r.width, spare_y = monitor.height - r.height;
	int margin_x = settings->margin < spare_x ? settings->margin : spare_x > 0 ? spare_x : 0;
	int margin_y = settings->margin < spare_y ? settings->margin : spare_y > 0 ? spare_y : 0;
	bool left = settings->corner == OVERLAY_TOP_LEFT || settings->corner == OVERLAY_BOTTOM_LEFT;
	bool top = settings->corner == OVERLAY_TOP_LEFT || settings->corner == OVERLAY_TOP_RIGHT;
	r.x = monitor.x + (left ? margin_x : monitor.width - r.width - margin_x);
	r.y = monitor.y + (top ? margin_y : monitor.height - r.height - margin_y);
	return r;
}
