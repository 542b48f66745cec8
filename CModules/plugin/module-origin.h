// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * module-origin: where this copy of the module is, and what follows from it:
 * which copy this is, for the line it logs at load (a user may have the
 * tarball's copy in OBS's user plugin folder and the .deb's in the system
 * plugin folder at once: OBS opens both, one after the other, so the first
 * registers the source and the second finds it there and stays idle), and
 * where its renderer is. The module's path is looked up in one place.
 */
#pragma once

#include <obs-module.h>

/* Where so_path is, for the log line at load: "user plugin folder", "system plugin folder" or "other
 * folder" (OBS_PLUGINS_PATH, a test host), then the layout it is in: ", OBS 33 layout" (NAME/NAME.so in a
 * user folder, lib/obs-modules/plugins) or ", legacy layout" (NAME/bin/64bit/, lib/obs-plugins). */
const char *module_origin_kind(const char *so_path);

/* The binary path of another module with this module's file name that OBS opened
 * before this one, or NULL. Needs a running OBS: NULL when self is NULL. */
const char *module_origin_other_copy(obs_module_t *self);

/* This module's .so, resolved (no symlinks, no "//"); bfree() it. From OBS
 * while it loads the module, else from the loader (dladdr: a test host, or
 * after load). NULL if neither knows. */
char *module_origin_binary_path(void);

/*
 * The renderer to run, the first usable of:
 *   1. $COMMENTBAR_RENDERER (tests, development), used even when unusable;
 *   2. beside the .so (`make install` and the tarball: the user plugin folder);
 *   3. PREFIX/libexec/comment-bar/commentbar when the .so is in
 *      PREFIX/lib[/<triplet>]/obs-plugins or (OBS 33's) PREFIX/lib[/<triplet>]/obs-modules/plugins
 *      (a Flatpak extension, /usr/local, any other prefix);
 *   4. /usr/libexec/comment-bar/commentbar (the .deb).
 * When none is usable, the first of 2-4 is returned (the supervisor keeps
 * retrying, so installing it later works) and problem says what was wrong
 * with each; problem is "" when the one returned is usable. bfree() it.
 */
char *module_origin_find_renderer(char *problem, size_t problem_size);
