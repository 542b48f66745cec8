// SPDX-License-Identifier: GPL-2.0-or-later
#include <cairo/cairo.h>
/* malloc_trim and mallopt (not in Swift's Glibc module): the renderer hands the heap's free pages
 * back after it lets go of a font map's glyphs (GlyphBudget). */
#include <malloc.h>
