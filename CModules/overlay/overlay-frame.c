// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay-frame.c: the newest frame, copied out of the pool and scaled by Cairo. */
#include "overlay-frame.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int overlay_pool_fd_argument(int argc, char **argv)
{
	for (int i = 1; i + 1 < argc; i++) {
		if (strcmp(argv[i], "--pool-fd") != 0)
			continue;
		char *end = NULL;
		errno = 0;
		long fd = strtol(argv[i + 1], &end, 10);
		if (errno != 0 || !end || *end != '\0' || fd < 0 || fd > 65535)
			return -1;
		return (int)fd;
	}
	return -1;
}

bool overlay_frame_init(struct overlay_frame *frame, const struct overlay_pool *pool)
{
	frame->seen = 0;
	frame->slot = 0;
	bool ok = true;
	for (unsigned i = 0; i < CB_POOL_SLOTS; i++) {
		/* Cairo only reads a source surface: the mapping stays read-only. */
		frame->slots[i] = cairo_image_surface_create_for_data((unsigned char *)overlay_pool_pixels(pool, i),
								      CAIRO_FORMAT_ARGB32, (int)pool->width,
								      (int)pool->height, (int)pool->stride);
		ok = ok && cairo_surface_status(frame->slots[i]) == CAIRO_STATUS_SUCCESS;
	}
	return ok;
}

bool overlay_frame_refresh(struct overlay_frame *frame, const struct overlay_pool *pool)
{
	return overlay_pool_newest(pool, frame->seen, &frame->slot, &frame->seen);
}

bool overlay_frame_paint(struct overlay_frame *frame, const struct overlay_pool *pool, cairo_t *cr, int width,
			 int height, int opacity, bool has_alpha)
{
	cairo_surface_t *image = frame->slots[frame->slot % CB_POOL_SLOTS];
	cairo_surface_mark_dirty(image); /* the renderer changed the pixels: no cached copy may be used */
	cairo_save(cr);
	cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
	if (has_alpha)
		cairo_set_source_rgba(cr, 0, 0, 0, 0);
	else
		cairo_set_source_rgb(cr, 0.08, 0.08, 0.12);
	cairo_paint(cr);
	cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
	cairo_scale(cr, (double)width / cairo_image_surface_get_width(image),
		    (double)height / cairo_image_surface_get_height(image));
	cairo_set_source_surface(cr, image, 0, 0);
	cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
	cairo_paint_with_alpha(cr, opacity / 100.0);
	cairo_restore(cr);
	cairo_surface_flush(cairo_get_target(cr));
	if (overlay_pool_whole(pool, frame->slot, frame->seen))
		return true;
	frame->seen = 0;
	return false;
}

void overlay_frame_free(struct overlay_frame *frame)
{
	for (unsigned i = 0; i < CB_POOL_SLOTS; i++) {
		if (frame->slots[i])
			cairo_surface_destroy(frame->slots[i]);
		frame->slots[i] = NULL;
	}
}
