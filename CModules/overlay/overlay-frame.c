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
	frame->image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)pool->width, (int)pool->height);
	return cairo_surface_status(frame->image) == CAIRO_STATUS_SUCCESS;
}

bool overlay_frame_refresh(struct overlay_frame *frame, const struct overlay_pool *pool)
{
	cairo_surface_flush(frame->image);
	unsigned char *pixels = cairo_image_surface_get_data(frame->image);
	size_t stride = (size_t)cairo_image_surface_get_stride(frame->image);
	/* A torn copy means a newer frame was published meanwhile: take that one instead. */
	for (int attempt = 0; attempt < 4; attempt++) {
		switch (overlay_pool_copy_newest(pool, &frame->seen, pixels, stride)) {
		case OVERLAY_COPY_NOTHING_NEW:
			return false;
		case OVERLAY_COPY_DONE:
			cairo_surface_mark_dirty(frame->image);
			return true;
		case OVERLAY_COPY_TORN:
			break;
		}
	}
	return false;
}

void overlay_frame_paint(const struct overlay_frame *frame, cairo_t *cr, int width, int height, int opacity,
			 bool has_alpha)
{
	cairo_save(cr);
	cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
	if (has_alpha)
		cairo_set_source_rgba(cr, 0, 0, 0, 0);
	else
		cairo_set_source_rgb(cr, 0.08, 0.08, 0.12);
	cairo_paint(cr);
	cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
	int frame_width = cairo_image_surface_get_width(frame->image);
	int frame_height = cairo_image_surface_get_height(frame->image);
	cairo_scale(cr, (double)width / frame_width, (double)height / frame_height);
	cairo_set_source_surface(cr, frame->image, 0, 0);
	cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
	cairo_paint_with_alpha(cr, opacity / 100.0);
	cairo_restore(cr);
}

void overlay_frame_free(struct overlay_frame *frame)
{
	if (frame->image)
		cairo_surface_destroy(frame->image);
	frame->image = NULL;
}
