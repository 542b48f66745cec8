// SPDX-License-Identifier: GPL-2.0-or-later
/* commentbar-overlay-x11: the bar over every window on an X11 screen (or XWayland).
 *
 * Started by the renderer (Sources/CommentBarOverlay) with the frame pool as an inherited fd and
 * its settings and frame notices on stdin (overlay-input.h). The window is override-redirect (no
 * window manager frames, focuses or lists it), typed as a notification and "above" for tools that
 * read the hints, takes no input (an empty XFixes input shape: clicks reach the window below) and
 * is raised again whenever another window is mapped or raised above it. ARGB when a compositing
 * manager owns _NET_WM_CM_Sn, an opaque panel otherwise; when that changes, it exits so the
 * renderer starts it again with the right visual. Every fault is one stderr line and an exit. */
#define _GNU_SOURCE
#include "overlay-frame.h"
#include "overlay-input.h"
#include "overlay-place.h"

#include <cairo-xcb.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/randr.h>
#include <xcb/shape.h>
#include <xcb/xcb.h>
#include <xcb/xcb_ewmh.h>
#include <xcb/xcb_icccm.h>
#include <xcb/xfixes.h>

struct overlay_x11 {
	xcb_connection_t *c;
	xcb_screen_t *screen;
	xcb_ewmh_connection_t ewmh;
	int screen_number;
	xcb_window_t window;
	xcb_visualtype_t *visual;
	bool has_alpha;
	bool mapped;
	uint8_t randr_event_base; /* 0: no RandR */
	uint8_t xfixes_event_base;
	struct overlay_rect place;
	cairo_surface_t *surface;
};

static int fail(int status, const char *message)
{
	fprintf(stderr, "overlay: %s\n", message);
	return status;
}

static xcb_visualtype_t *find_visual(xcb_screen_t *screen, uint8_t depth, xcb_visualid_t wanted)
{
	for (xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(screen); d.rem; xcb_depth_next(&d)) {
		if (d.data->depth != depth)
			continue;
		for (xcb_visualtype_iterator_t v = xcb_depth_visuals_iterator(d.data); v.rem; xcb_visualtype_next(&v))
			if ((wanted == XCB_NONE && v.data->_class == XCB_VISUAL_CLASS_TRUE_COLOR) ||
			    v.data->visual_id == wanted)
				return v.data;
	}
	return NULL;
}

/* The primary monitor (RandR 1.5 monitors), else the first, else the whole screen. */
static struct overlay_rect monitor_rect(struct overlay_x11 *x)
{
	struct overlay_rect whole = {0, 0, x->screen->width_in_pixels, x->screen->height_in_pixels};
	if (!x->randr_event_base)
		return whole;
	xcb_randr_get_monitors_reply_t *reply =
		xcb_randr_get_monitors_reply(x->c, xcb_randr_get_monitors(x->c, x->screen->root, 1), NULL);
	if (!reply)
		return whole;
	struct overlay_rect chosen = whole;
	bool found = false;
	for (xcb_randr_monitor_info_iterator_t m = xcb_randr_get_monitors_monitors_iterator(reply); m.rem;
	     xcb_randr_monitor_info_next(&m)) {
		if (m.data->width == 0 || m.data->height == 0)
			continue;
		if (!found || m.data->primary) {
			chosen = (struct overlay_rect){m.data->x, m.data->y, m.data->width, m.data->height};
			found = true;
		}
		if (m.data->primary)
			break;
	}
	free(reply);
	return chosen;
}

static bool compositor_running(struct overlay_x11 *x)
{
	xcb_window_t owner = XCB_NONE;
	xcb_ewmh_get_wm_cm_owner_reply(&x->ewmh, xcb_ewmh_get_wm_cm_owner(&x->ewmh, x->screen_number), &owner, NULL);
	return owner != XCB_NONE;
}

static int create_window(struct overlay_x11 *x)
{
	uint8_t depth = x->screen->root_depth;
	xcb_colormap_t colormap = x->screen->default_colormap;
	x->visual = find_visual(x->screen, depth, x->screen->root_visual);
	if (x->has_alpha) {
		xcb_visualtype_t *argb = find_visual(x->screen, 32, XCB_NONE);
		if (argb) {
			x->visual = argb;
			depth = 32;
			colormap = xcb_generate_id(x->c);
			xcb_create_colormap(x->c, XCB_COLORMAP_ALLOC_NONE, colormap, x->screen->root, argb->visual_id);
		} else {
			x->has_alpha = false;
		}
	}
	if (!x->visual)
		return fail(OVERLAY_EXIT_CANNOT_START, "the X screen has no TrueColor visual");
	x->window = xcb_generate_id(x->c);
	uint32_t values[] = {0, 0, 1, XCB_EVENT_MASK_EXPOSURE | XCB_EVENT_MASK_STRUCTURE_NOTIFY, colormap};
	xcb_void_cookie_t made = xcb_create_window_checked(
		x->c, depth, x->window, x->screen->root, 0, 0, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, x->visual->visual_id,
		XCB_CW_BACK_PIXEL | XCB_CW_BORDER_PIXEL | XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK | XCB_CW_COLORMAP,
		values);
	xcb_generic_error_t *error = xcb_request_check(x->c, made);
	if (error) {
		free(error);
		return fail(OVERLAY_EXIT_CANNOT_START, "the X server refused the overlay window");
	}
	static const char name[] = "Comment Bar overlay";
	static const char class_name[] = "commentbar-overlay\0CommentBar";
	xcb_icccm_set_wm_name(x->c, x->window, XCB_ATOM_STRING, 8, sizeof(name) - 1, name);
	xcb_ewmh_set_wm_name(&x->ewmh, x->window, sizeof(name) - 1, name);
	xcb_icccm_set_wm_class(x->c, x->window, sizeof(class_name), class_name);
	/* Never focused: no input hint, no WM_TAKE_FOCUS (WM_PROTOCOLS is left unset). */
	xcb_icccm_wm_hints_t hints = {0};
	xcb_icccm_wm_hints_set_input(&hints, 0);
	xcb_icccm_set_wm_hints(x->c, x->window, &hints);
	xcb_atom_t type = x->ewmh._NET_WM_WINDOW_TYPE_NOTIFICATION;
	xcb_ewmh_set_wm_window_type(&x->ewmh, x->window, 1, &type);
	xcb_atom_t state[] = {x->ewmh._NET_WM_STATE_ABOVE, x->ewmh._NET_WM_STATE_SKIP_TASKBAR,
			      x->ewmh._NET_WM_STATE_SKIP_PAGER};
	xcb_ewmh_set_wm_state(&x->ewmh, x->window, 3, state);
	/* Click-through: an input region with no rectangles. */
	xcb_xfixes_region_t empty = xcb_generate_id(x->c);
	xcb_xfixes_create_region(x->c, empty, 0, NULL);
	xcb_xfixes_set_window_shape_region(x->c, x->window, XCB_SHAPE_SK_INPUT, 0, 0, empty);
	xcb_xfixes_destroy_region(x->c, empty);
	x->surface = cairo_xcb_surface_create(x->c, x->window, x->visual, 1, 1);
	return 0;
}

static void raise_window(struct overlay_x11 *x)
{
	uint32_t above = XCB_STACK_MODE_ABOVE;
	xcb_configure_window(x->c, x->window, XCB_CONFIG_WINDOW_STACK_MODE, &above);
}

static void place_window(struct overlay_x11 *x, const struct overlay_pool *pool, const struct overlay_settings *s)
{
	struct overlay_rect r = overlay_place(monitor_rect(x), pool->width, pool->height, s);
	if (r.x == x->place.x && r.y == x->place.y && r.width == x->place.width && r.height == x->place.height)
		return;
	x->place = r;
	uint32_t values[] = {(uint32_t)r.x, (uint32_t)r.y, (uint32_t)r.width, (uint32_t)r.height};
	xcb_configure_window(x->c, x->window,
			     XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y | XCB_CONFIG_WINDOW_WIDTH |
				     XCB_CONFIG_WINDOW_HEIGHT,
			     values);
	cairo_xcb_surface_set_size(x->surface, r.width, r.height);
}

static void present(struct overlay_x11 *x, struct overlay_frame *frame, const struct overlay_pool *pool,
		    const struct overlay_settings *s)
{
	if (!x->mapped) {
		xcb_map_window(x->c, x->window);
		raise_window(x);
		x->mapped = true;
	}
	cairo_t *cr = cairo_create(x->surface);
	overlay_frame_paint(frame, pool, cr, x->place.width, x->place.height, s->opacity, x->has_alpha);
	cairo_destroy(cr);
}

/* Root events: another top-level window mapped, raised or restacked above ours, raises ours again. */
static bool needs_raise(const struct overlay_x11 *x, const xcb_generic_event_t *event)
{
	switch (event->response_type & 0x7f) {
	case XCB_MAP_NOTIFY: {
		const xcb_map_notify_event_t *e = (const void *)event;
		return e->event == x->screen->root && e->window != x->window && !e->override_redirect;
	}
	case XCB_CONFIGURE_NOTIFY: {
		const xcb_configure_notify_event_t *e = (const void *)event;
		return e->event == x->screen->root && e->window != x->window && e->above_sibling == x->window;
	}
	case XCB_CIRCULATE_NOTIFY: {
		const xcb_circulate_notify_event_t *e = (const void *)event;
		return e->window != x->window && e->place == XCB_PLACE_ON_TOP;
	}
	default:
		return false;
	}
}

int main(int argc, char **argv)
{
	int pool_fd = overlay_pool_fd_argument(argc, argv);
	if (pool_fd < 0)
		return fail(OVERLAY_EXIT_CANNOT_START, "usage: commentbar-overlay-x11 --pool-fd N");
	struct overlay_pool pool;
	char why[256];
	if (!overlay_pool_open(&pool, pool_fd, why, sizeof(why)))
		return fail(OVERLAY_EXIT_CANNOT_START, why);
	struct overlay_frame frame;
	if (!overlay_frame_init(&frame, &pool))
		return fail(OVERLAY_EXIT_CANNOT_START, "out of memory for the frame copy");

	struct overlay_x11 x = {0};
	const char *display = getenv("DISPLAY");
	x.c = xcb_connect(NULL, &x.screen_number);
	if (xcb_connection_has_error(x.c)) {
		fprintf(stderr, "overlay: cannot open the X display %s\n", display && *display ? display : "(DISPLAY is not set)");
		return OVERLAY_EXIT_CANNOT_START;
	}
	xcb_screen_iterator_t screens = xcb_setup_roots_iterator(xcb_get_setup(x.c));
	for (int i = 0; i < x.screen_number && screens.rem; i++)
		xcb_screen_next(&screens);
	x.screen = screens.data;
	if (!x.screen)
		return fail(OVERLAY_EXIT_CANNOT_START, "the X display has no such screen");
	const xcb_query_extension_reply_t *shape = xcb_get_extension_data(x.c, &xcb_shape_id);
	const xcb_query_extension_reply_t *xfixes = xcb_get_extension_data(x.c, &xcb_xfixes_id);
	if (!shape || !shape->present || !xfixes || !xfixes->present)
		return fail(OVERLAY_EXIT_CANNOT_START, "the X server lacks SHAPE or XFIXES (needed to let clicks through)");
	free(xcb_xfixes_query_version_reply(x.c, xcb_xfixes_query_version(x.c, 5, 0), NULL));
	x.xfixes_event_base = xfixes->first_event;
	const xcb_query_extension_reply_t *randr = xcb_get_extension_data(x.c, &xcb_randr_id);
	if (randr && randr->present) {
		xcb_randr_query_version_reply_t *version =
			xcb_randr_query_version_reply(x.c, xcb_randr_query_version(x.c, 1, 5), NULL);
		if (version && (version->major_version > 1 || version->minor_version >= 5))
			x.randr_event_base = randr->first_event;
		free(version);
	}
	if (!xcb_ewmh_init_atoms_replies(&x.ewmh, xcb_ewmh_init_atoms(x.c, &x.ewmh), NULL))
		return fail(OVERLAY_EXIT_CANNOT_START, "cannot read the X display's atoms");
	x.has_alpha = compositor_running(&x);
	int status = create_window(&x);
	if (status != 0)
		return status;

	/* Watch the root (restacking), the compositor selection and the monitors. */
	uint32_t root_events = XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
	xcb_change_window_attributes(x.c, x.screen->root, XCB_CW_EVENT_MASK, &root_events);
	xcb_xfixes_select_selection_input(x.c, x.window, x.ewmh._NET_WM_CM_Sn[x.screen_number],
					  XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER |
						  XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_WINDOW_DESTROY |
						  XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_CLIENT_CLOSE);
	if (x.randr_event_base)
		xcb_randr_select_input(x.c, x.screen->root, XCB_RANDR_NOTIFY_MASK_SCREEN_CHANGE);
	xcb_flush(x.c);

	struct overlay_settings settings = OVERLAY_SETTINGS_DEFAULT;
	struct overlay_input input = {0};
	fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);
	for (;;) {
		struct pollfd fds[] = {{STDIN_FILENO, POLLIN, 0}, {xcb_get_file_descriptor(x.c), POLLIN, 0}};
		if (poll(fds, 2, -1) < 0)
			continue;
		struct overlay_news news = {0};
		bool open = overlay_input_read(&input, STDIN_FILENO, &settings, &news);
		bool repaint = false, replace = news.settings_changed;
		xcb_generic_event_t *event;
		while ((event = xcb_poll_for_event(x.c))) {
			uint8_t type = event->response_type & 0x7f;
			if (type == XCB_EXPOSE)
				repaint = true;
			else if (needs_raise(&x, event))
				raise_window(&x);
			else if (type == XCB_DESTROY_NOTIFY && ((xcb_destroy_notify_event_t *)event)->window == x.window)
				return fail(OVERLAY_EXIT_DISPLAY_LOST, "the overlay window was destroyed");
			else if (type == x.xfixes_event_base + XCB_XFIXES_SELECTION_NOTIFY &&
				 compositor_running(&x) != x.has_alpha)
				return fail(OVERLAY_EXIT_RESTART, x.has_alpha ? "the compositor stopped: restarting without alpha"
									      : "a compositor started: restarting with alpha");
			else if (x.randr_event_base && type == x.randr_event_base + XCB_RANDR_SCREEN_CHANGE_NOTIFY)
				replace = true;
			free(event);
		}
		if (xcb_connection_has_error(x.c))
			return fail(OVERLAY_EXIT_DISPLAY_LOST, "the X display connection was lost");
		if (!open)
			break;
		if (replace) {
			place_window(&x, &pool, &settings);
			repaint = true;
		}
		/* A frame found torn at its last paint (seen 0) is replaced by the newest at once. */
		if ((news.frame_published || (repaint && !frame.seen)) && overlay_frame_refresh(&frame, &pool))
			repaint = true;
		if (repaint && frame.seen) {
			if (!x.mapped)
				place_window(&x, &pool, &settings);
			present(&x, &frame, &pool, &settings);
		}
		xcb_flush(x.c);
	}
	cairo_surface_destroy(x.surface);
	overlay_frame_free(&frame);
	overlay_pool_close(&pool);
	xcb_ewmh_connection_wipe(&x.ewmh);
	xcb_disconnect(x.c);
	return OVERLAY_EXIT_DONE;
}
