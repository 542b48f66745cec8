// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-secrets: a source's secrets (the settings rows listed in source-secrets.c: the
 * Mirrativ session) live outside its saved settings (issue 28), so that neither the scene
 * collection (which streamers export and share) nor obs-websocket's GetInputSettings holds
 * them. A value found in the settings (typed in the properties, set by obs-websocket, or an
 * older scene collection's) is moved into a 0600 file (secret-store.h) under OBS's module
 * config folder, named by an id the shim keeps in the settings, and erased from them; the
 * renderer still gets it in its settings line (settings_line's secrets). The properties
 * show whether one is set, never its value.
 *
 * Files are read at create (OBS's UI or loading thread); every later write or delete runs
 * on the source's supervisor thread (update may run on OBS's graphics thread).
 */
#pragma once

#include <obs-module.h>

#include "renderer-supervisor.h"

struct source_secrets;

/* From create: reads the source's secret files and moves a secret out of settings now.
 * name: the source's escaped name, for the log. NULL when out of memory. */
struct source_secrets *source_secrets_create(obs_data_t *settings, const char *name);
/* From update: moves any secret out of settings into memory; sup writes its file. */
void source_secrets_take(struct source_secrets *secrets, obs_data_t *settings, struct renderer_supervisor *sup);
/* The secrets to send, as settings_line takes them (obs_data_release it). */
obs_data_t *source_secrets_values(struct source_secrets *secrets);
/* A "Forget" button (its property's name): its secret and the secret's file go (sup deletes it). */
void source_secrets_forget(struct source_secrets *secrets, struct renderer_supervisor *sup, const char *button);
/* The source was removed for good: its files go (sup deletes them), memory stays until destroy. */
void source_secrets_removed(struct source_secrets *secrets, struct renderer_supervisor *sup);
void source_secrets_destroy(struct source_secrets *secrets);

/* For each secret: a line saying whether one is set, an empty password field to set a new
 * one, and a "Forget" button calling forget(props, property, data), which hands the
 * property's name to source_secrets_forget. secrets may be NULL (no source: none set). */
void source_secrets_add_properties(obs_properties_t *props, struct source_secrets *secrets,
				   obs_property_clicked_t forget, void *data);
