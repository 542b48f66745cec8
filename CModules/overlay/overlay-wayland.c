// SPDX-License-Identifier: GPL-2.0-or-later
/* commentbar-overlay-wayland: the bar on a Wayland compositor's overlay layer (wlr-layer-shell,
 * through gtk-layer-shell: sway, KDE Plasma, Hyprland). A separate program, so GTK never loads
 * into the renderer or the X11 helper. Anchored to the chosen corner with the margin, no keyboard
 * interactivity, an empty input region (clicks reach the window below). A compositor without
 * layer shell (GNOME) makes it exit with OVERLAY_EXIT_NO_LAYER_SHELL: the renderer then starts
 * the X11 helper on XWayland. Same stdin lines and pool as the X11 helper. */
#define _GNU_SOURCE
#include "overlay-frame.h"
#include "overlay-input.h"
#include "overlay-place.h"

#include <fcntl.h>
#include <glib-unix.h>
#include <gtk-layer-shell.h>
#include <gtk/gtk.h>
#include <stdio.h>
#include <unistd.h>

struct overlay_wayland {
	GtkWidget *window;
	GtkWidget *area;
	struct overlay_pool pool;
	struct overlay_frame frame;
	struct overlay_settings settings;
	struct overlay_input input;
	struct overlay_rect place;
	int status;
};

static void apply_settings(struct overlay_wayland *w)
{
	GtkWindow *window = GTK_WINDOW(w->window);
	/* The compositor puts the surface on its output; the monitor size only bounds the scale. */
	struct overlay_rect monitor = {0, 0, 0, 0};
	GdkDisplay *display = gdk_display_get_default();
	GdkMonitor *first = display ? gdk_display_get_monitor(display, 0) : NULL;
	if (first) {
		GdkRectangle area;
		gdk_monitor_get_geometry(first, &area);
		monitor = (struct overlay_rect){0, 0, area.width, area.height};
	}
	struct overlay_settings unplaced = w->settings;
	unplaced.margin = 0;
	w->place = overlay_place(monitor, w->pool.width, w->pool.height, &unplaced);
	bool left = w->settings.corner == OVERLAY_TOP_LEFT || w->settings.corner == OVERLAY_BOTTOM_LEFT;
	bool top = w->settings.corner == OVERLAY_TOP_LEFT || w->settings.corner == OVERLAY_TOP_RIGHT;
	gtk_layer_set_anchor(window, GTK_LAYER_SHELL_EDGE_LEFT, left);
	gtk_layer_set_anchor(window, GTK_LAYER_SHELL_EDGE_RIGHT, !left);
	gtk_layer_set_anchor(window, GTK_LAYER_SHELL_EDGE_TOP, top);
	gtk_layer_set_anchor(window, GTK_LAYER_SHELL_EDGE_BOTTOM, !top);
	gtk_layer_set_margin(window, left ? GTK_LAYER_SHELL_EDGE_LEFT : GTK_LAYER_SHELL_EDGE_RIGHT, w->settings.margin);
	gtk_layer_set_margin(window, top ? GTK_LAYER_SHELL_EDGE_TOP : GTK_LAYER_SHELL_EDGE_BOTTOM, w->settings.margin);
	gtk_widget_set_size_request(w->area, w->place.width, w->place.height);
	gtk_window_resize(window, w->place.width, w->place.height);
}

static gboolean draw(GtkWidget *area, cairo_t *cr, gpointer data)
{
	struct overlay_wayland *w = data;
	if (!w->frame.seen)
		overlay_frame_refresh(&w->frame, &w->pool);
	/* A frame the renderer moved on from while it was read is drawn again from the newest. */
	if (w->frame.seen &&
	    !overlay_frame_paint(&w->frame, &w->pool, cr, gtk_widget_get_allocated_width(area),
				 gtk_widget_get_allocated_height(area), w->settings.opacity, true))
		gtk_widget_queue_draw(area);
	return TRUE;
}

static void realized(GtkWidget *window, gpointer data)
{
	(void)data;
	/* Click-through: an input region with no rectangles. */
	cairo_region_t *empty = cairo_region_create();
	gtk_widget_input_shape_combine_region(window, empty);
	cairo_region_destroy(empty);
}

static gboolean stdin_ready(gint fd, GIOCondition condition, gpointer data)
{
	(void)condition;
	struct overlay_wayland *w = data;
	struct overlay_news news = {0};
	bool open = overlay_input_read(&w->input, fd, &w->settings, &news);
	if (news.settings_changed)
		apply_settings(w);
	bool changed = news.frame_published && overlay_frame_refresh(&w->frame, &w->pool);
	if (w->frame.seen && !gtk_widget_get_visible(w->window))
		gtk_widget_show_all(w->window);
	if (changed || news.settings_changed)
		gtk_widget_queue_draw(w->area);
	if (!open) {
		gtk_main_quit();
		return G_SOURCE_REMOVE;
	}
	return G_SOURCE_CONTINUE;
}

static void display_closed(GdkDisplay *display, gboolean is_error, gpointer data)
{
	(void)display;
	(void)is_error;
	struct overlay_wayland *w = data;
	fprintf(stderr, "overlay: the Wayland display connection was lost\n");
	w->status = OVERLAY_EXIT_DISPLAY_LOST;
	gtk_main_quit();
}

int main(int argc, char **argv)
{
	struct overlay_wayland w = {.settings = OVERLAY_SETTINGS_DEFAULT, .status = OVERLAY_EXIT_DONE};
	int pool_fd = overlay_pool_fd_argument(argc, argv);
	if (pool_fd < 0) {
		fprintf(stderr, "overlay: usage: commentbar-overlay-wayland --pool-fd N\n");
		return OVERLAY_EXIT_CANNOT_START;
	}
	char why[256];
	if (!overlay_pool_open(&w.pool, pool_fd, why, sizeof(why))) {
		fprintf(stderr, "overlay: %s\n", why);
		return OVERLAY_EXIT_CANNOT_START;
	}
	if (!overlay_frame_init(&w.frame, &w.pool)) {
		fprintf(stderr, "overlay: out of memory for the frame copy\n");
		return OVERLAY_EXIT_CANNOT_START;
	}
	gdk_set_allowed_backends("wayland");
	if (!gtk_init_check(&argc, &argv)) {
		const char *display = getenv("WAYLAND_DISPLAY");
		fprintf(stderr, "overlay: cannot open the Wayland display %s\n", display && *display ? display : "(WAYLAND_DISPLAY is not set)");
		return OVERLAY_EXIT_CANNOT_START;
	}
	if (!gtk_layer_is_supported()) {
		fprintf(stderr, "overlay: this Wayland compositor has no layer shell (wlr-layer-shell): using XWayland\n");
		return OVERLAY_EXIT_NO_LAYER_SHELL;
	}
	w.window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
	GtkWindow *window = GTK_WINDOW(w.window);
	gtk_layer_init_for_window(window);
	gtk_layer_set_layer(window, GTK_LAYER_SHELL_LAYER_OVERLAY);
	gtk_layer_set_namespace(window, "comment-bar");
	gtk_layer_set_keyboard_mode(window, GTK_LAYER_SHELL_KEYBOARD_MODE_NONE);
	gtk_layer_set_exclusive_zone(window, -1);
	GdkVisual *rgba = gdk_screen_get_rgba_visual(gtk_widget_get_screen(w.window));
	if (rgba)
		gtk_widget_set_visual(w.window, rgba);
	gtk_widget_set_app_paintable(w.window, TRUE);
	w.area = gtk_drawing_area_new();
	gtk_container_add(GTK_CONTAINER(w.window), w.area);
	g_signal_connect(w.area, "draw", G_CALLBACK(draw), &w);
	g_signal_connect(w.window, "realize", G_CALLBACK(realized), NULL);
	g_signal_connect(gdk_display_get_default(), "closed", G_CALLBACK(display_closed), &w);
	apply_settings(&w);
	fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);
	g_unix_fd_add(STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR, stdin_ready, &w);
	gtk_main();
	overlay_frame_free(&w.frame);
	overlay_pool_close(&w.pool);
	return w.status;
}
