// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-secrets: a source's secrets (the settings rows listed in source-secrets.c: the
 * Mirrativ session, Streamer.bot's password) never stay in its saved settings (issue 28), so neither the scene
 * collection (which streamers export and share) nor obs-websocket's GetInputSettings holds
 * them. The renderer keeps them, in a file only the user can read (docs/architecture.md,
 * "Secrets"); the shim only:
 * - puts a secret found in the settings (typed in the properties, set by obs-websocket, or
 *   an older scene collection's, at create) in the one settings line built from them, and
 *   erases it from the settings at once;
 * - names the source's file: `secrets_id`, 32 random hex digits kept in the settings (OBS
 *   29.0 has no source UUID), and says that a secret is saved: `<key>_saved` (true), both
 *   kept in the settings and sent in the line;
 * - shows that state in the properties (no file is read), an empty password field for a new
 *   one and "Forget", which clears the flag; the renderer deletes its file when the actions
 *   channel's forget_secrets goes up (source-commands).
 * No I/O: OBS's threads call these.
 */
#pragma once

#include <stdint.h>

#include <obs-module.h>

#include "commentbar_settings.h"

/* The renderer's settings line (settings_line) with the secrets' keys: a secret in settings
 * is in this line only, and is erased from settings before this returns. bfree() it. */
char *source_secrets_settings_line(obs_data_t *settings, const char *source_name, uint32_t *width,
				   uint32_t *height);
/* "Forget": the settings no longer say a secret is saved. */
void source_secrets_forget(obs_data_t *settings);
/* For the secret row index (a row of the list in source-secrets.c; any other adds nothing):
 * a line saying whether one is saved (settings may be NULL: none), an empty password field to
 * set a new one, and a "Forget" button calling forget(props, property, data), enabled while
 * one is saved. Each secret's properties go in the group they belong to. */
void source_secrets_add_properties(obs_properties_t *props, obs_data_t *settings, enum cb_setting_index index,
				   obs_property_clicked_t forget, void *data);
