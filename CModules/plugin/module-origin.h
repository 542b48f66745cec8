// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * module-origin: which copy of the module this is, for the line it logs at load.
 * A user may have the tarball's copy in OBS's user plugin folder and the .deb's
 * in the system plugin folder at once. OBS opens both, one after the other, so
 * the first registers the source and the second finds it there and stays idle.
 */
#pragma once

#include <obs-module.h>

/* "user plugin folder", "system plugin folder" or "other folder" (OBS_PLUGINS_PATH, a test host). */
const char *module_origin_kind(const char *so_path);

/* The binary path of another module with this module's file name that OBS opened
 * before this one, or NULL. Needs a running OBS: NULL when self is NULL. */
const char *module_origin_other_copy(obs_module_t *self);
