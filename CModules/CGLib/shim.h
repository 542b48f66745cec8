// SPDX-License-Identifier: GPL-2.0-or-later
/* GLib's Unicode functions (normalization, case folding) for the chat filters, and its SHA-256
 * (GChecksum). GLib is loaded into the renderer by Pango already, so this adds no library to the
 * process. */
#include <glib.h>
