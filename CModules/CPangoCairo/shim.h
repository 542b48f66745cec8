// SPDX-License-Identifier: GPL-2.0-or-later
#include <pango/pangocairo.h>
#include <gdk-pixbuf/gdk-pixbuf.h>

/* gdk-pixbuf steps animations with GTimeVal, which GLib deprecates; these two wrappers keep
 * that in C, in milliseconds from the animation's start. */
static inline GdkPixbufAnimationIter *cb_pixbuf_animation_iter_at(GdkPixbufAnimation *animation, long long ms)
{
	G_GNUC_BEGIN_IGNORE_DEPRECATIONS
	GTimeVal time = {(glong)(ms / 1000), (glong)((ms % 1000) * 1000)};
	GdkPixbufAnimationIter *iter = gdk_pixbuf_animation_get_iter(animation, &time);
	G_GNUC_END_IGNORE_DEPRECATIONS
	return iter;
}

static inline gboolean cb_pixbuf_animation_iter_advance_to(GdkPixbufAnimationIter *iter, long long ms)
{
	G_GNUC_BEGIN_IGNORE_DEPRECATIONS
	GTimeVal time = {(glong)(ms / 1000), (glong)((ms % 1000) * 1000)};
	gboolean changed = gdk_pixbuf_animation_iter_advance(iter, &time);
	G_GNUC_END_IGNORE_DEPRECATIONS
	return changed;
}
