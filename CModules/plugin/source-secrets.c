// SPDX-License-Identifier: GPL-2.0-or-later
/* A source's secrets, kept out of its saved settings (see source-secrets.h). */
#define _GNU_SOURCE
#include "source-secrets.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin-log.h"
#include "secret-store.h"
#include "settings-line.h"

/* The one list of secret rows: a later secret is one more line (and its locale texts). */
static const struct secret_row {
	enum cb_setting_index index;
	const char *label; /* locale keys <label>, <label>.Set, .None, .Description, .Forget */
} secret_rows[] = {
	{CB_SETTING_INDEX_mirrativ_session, "MirrativSession"},
};
#define SECRET_COUNT (sizeof(secret_rows) / sizeof(secret_rows[0]))

/* The settings key of the source's id, which names its files: not a secret, not in the
 * settings table (the renderer never sees it). */
#define ID_KEY "secrets_id"
/* The module config folder's subfolder of secret files. */
#define FOLDER_NAME "secrets"

struct source_secrets {
	char name[256]; /* escaped, for the log */
	char *folder;   /* bfree; NULL: no config folder (the secrets stay in memory) */
	pthread_mutex_t mutex; /* guards what follows: update, forget and properties run on different threads */
	char id[SECRET_STORE_ID_SIZE]; /* "" until a secret is stored */
	obs_data_t *values;            /* the secrets, by settings key */
	struct source_secrets *next_live;
};

/* The sources alive now, to tell a duplicated source (OBS copies its settings, the id
 * included) from the original. */
static pthread_mutex_t live_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct source_secrets *live;

static const char *row_key(const struct secret_row *row)
{
	return settings_key(row->index);
}

/* ---- the files, on the supervisor's thread (or at create) ---- */

struct file_job {
	char name[256];
	char *folder; /* bstrdup */
	char id[SECRET_STORE_ID_SIZE];
	const char *key; /* a settings key: static */
	char *value;     /* bstrdup; NULL: delete the file */
};

static void run_file_job(void *data)
{
	struct file_job *job = data;
	char why[512] = "";
	const bool done = job->value ? secret_store_write(job->folder, job->id, job->key, job->value, why, sizeof(why))
				     : secret_store_delete(job->folder, job->id, job->key, why, sizeof(why));
	if (!done)
		source_log(LOG_WARNING, job->name, "secret %s: %s", job->key, why);
	bfree(job->folder);
	bfree(job->value);
	bfree(job);
}

/* Writes (value) or deletes (NULL) the key's file: on sup's thread, or now when sup is NULL.
 * Needs the mutex. */
static void save(struct source_secrets *secrets, const char *key, const char *value, struct renderer_supervisor *sup)
{
	if (!secrets->folder || !secrets->id[0]) {
		if (value) /* OBS gave no config folder, or the kernel no randomness: kept until OBS quits */
			source_log(LOG_WARNING, secrets->name, "secret %s: no file to keep it in; it lasts until OBS quits",
				   key);
		return;
	}
	struct file_job *job = bzalloc(sizeof(*job));
	memcpy(job->name, secrets->name, sizeof(job->name));
	job->folder = bstrdup(secrets->folder);
	memcpy(job->id, secrets->id, sizeof(job->id));
	job->key = key;
	job->value = value ? bstrdup(value) : NULL;
	if (!sup)
		run_file_job(job);
	else if (!renderer_supervisor_defer(sup, run_file_job, job))
		run_file_job(job); /* out of memory: better late on this thread than lost */
}

/* ---- life ---- */

static bool id_in_use(const char *id)
{
	for (struct source_secrets *other = live; other; other = other->next_live)
		if (strcmp(other->id, id) == 0)
			return true;
	return false;
}

/* The files of the id the settings name; a duplicated source's (its original is alive)
 * become files of a new id of its own. live_mutex held. */
static void load(struct source_secrets *secrets, obs_data_t *settings)
{
	const char *id = obs_data_get_string(settings, ID_KEY);
	if (!secret_store_valid_id(id))
		return;
	const bool duplicate = id_in_use(id);
	for (size_t i = 0; i < SECRET_COUNT && secrets->folder; i++) {
		char why[512];
		char *value = secret_store_read(secrets->folder, id, row_key(&secret_rows[i]), why, sizeof(why));
		if (value)
			obs_data_set_string(secrets->values, row_key(&secret_rows[i]), value);
		else if (why[0])
			source_log(LOG_WARNING, secrets->name, "secret %s: %s", row_key(&secret_rows[i]), why);
		free(value);
	}
	if (!duplicate) {
		snprintf(secrets->id, sizeof(secrets->id), "%s", id);
		return;
	}
	if (!secret_store_new_id(secrets->id))
		return;
	obs_data_set_string(settings, ID_KEY, secrets->id);
	for (size_t i = 0; i < SECRET_COUNT; i++)
		if (obs_data_has_user_value(secrets->values, row_key(&secret_rows[i])))
			save(secrets, row_key(&secret_rows[i]),
			     obs_data_get_string(secrets->values, row_key(&secret_rows[i])), NULL);
}

/* Moves each secret out of settings: into memory, and to its file (see save). Returns how
 * many it moved. Mutex held. */
static size_t take_locked(struct source_secrets *secrets, obs_data_t *settings, struct renderer_supervisor *sup)
{
	size_t moved = 0;
	for (size_t i = 0; i < SECRET_COUNT; i++) {
		const char *key = row_key(&secret_rows[i]);
		const char *value = obs_data_get_string(settings, key);
		if (!value || !*value) {
			obs_data_erase(settings, key); /* an empty field keeps the secret set */
			continue;
		}
		if (!secrets->id[0] && !secret_store_new_id(secrets->id))
			secrets->id[0] = '\0';
		obs_data_set_string(secrets->values, key, value);
		save(secrets, key, value, sup);
		obs_data_erase(settings, key);
		moved++;
	}
	/* Kept in the settings (OBS's "Defaults" clears them): the files stay found. */
	if (secrets->id[0])
		obs_data_set_string(settings, ID_KEY, secrets->id);
	return moved;
}

struct source_secrets *source_secrets_create(obs_data_t *settings, const char *name)
{
	struct source_secrets *secrets = bzalloc(sizeof(*secrets));
	if (pthread_mutex_init(&secrets->mutex, NULL) != 0) {
		bfree(secrets);
		return NULL;
	}
	snprintf(secrets->name, sizeof(secrets->name), "%s", name);
	secrets->folder = obs_module_config_path(FOLDER_NAME);
	secrets->values = obs_data_create();
	pthread_mutex_lock(&live_mutex);
	load(secrets, settings);
	pthread_mutex_lock(&secrets->mutex);
	const size_t older = take_locked(secrets, settings, NULL);
	pthread_mutex_unlock(&secrets->mutex);
	secrets->next_live = live;
	live = secrets;
	pthread_mutex_unlock(&live_mutex);
	if (older)
		source_log(LOG_INFO, secrets->name, "the secrets in its saved settings moved to %s/%s.*",
			   secrets->folder ? secrets->folder : "(no folder: memory only)", secrets->id);
	return secrets;
}

void source_secrets_take(struct source_secrets *secrets, obs_data_t *settings, struct renderer_supervisor *sup)
{
	pthread_mutex_lock(&secrets->mutex);
	take_locked(secrets, settings, sup);
	pthread_mutex_unlock(&secrets->mutex);
}

obs_data_t *source_secrets_values(struct source_secrets *secrets)
{
	obs_data_t *copy = obs_data_create();
	pthread_mutex_lock(&secrets->mutex);
	obs_data_apply(copy, secrets->values);
	pthread_mutex_unlock(&secrets->mutex);
	return copy;
}

/* Deletes the files of the rows whose forget button is named button (NULL: every row);
 * forgets their values too when forget. */
static void drop(struct source_secrets *secrets, struct renderer_supervisor *sup, const char *button, bool forget)
{
	pthread_mutex_lock(&secrets->mutex);
	for (size_t i = 0; i < SECRET_COUNT; i++) {
		const char *key = row_key(&secret_rows[i]);
		if (button && (strncmp(button, key, strlen(key)) != 0 || strcmp(button + strlen(key), "_forget") != 0))
			continue;
		save(secrets, key, NULL, sup);
		if (forget)
			obs_data_erase(secrets->values, key);
	}
	pthread_mutex_unlock(&secrets->mutex);
}

void source_secrets_forget(struct source_secrets *secrets, struct renderer_supervisor *sup, const char *button)
{
	drop(secrets, sup, button, true);
}

void source_secrets_removed(struct source_secrets *secrets, struct renderer_supervisor *sup)
{
	drop(secrets, sup, NULL, false);
}

void source_secrets_destroy(struct source_secrets *secrets)
{
	if (!secrets)
		return;
	pthread_mutex_lock(&live_mutex);
	for (struct source_secrets **link = &live; *link; link = &(*link)->next_live)
		if (*link == secrets) {
			*link = secrets->next_live;
			break;
		}
	pthread_mutex_unlock(&live_mutex);
	obs_data_release(secrets->values);
	bfree(secrets->folder);
	pthread_mutex_destroy(&secrets->mutex);
	bfree(secrets);
}

/* ---- the properties: whether one is set, never its value ---- */

static const char *text(const struct secret_row *row, const char *suffix)
{
	char key[128];
	snprintf(key, sizeof(key), "%s%s", row->label, suffix);
	return obs_module_text(key);
}

void source_secrets_add_properties(obs_properties_t *props, struct source_secrets *secrets,
				   obs_property_clicked_t forget, void *data)
{
	for (size_t i = 0; i < SECRET_COUNT; i++) {
		const struct secret_row *row = &secret_rows[i];
		bool set = false;
		if (secrets) {
			pthread_mutex_lock(&secrets->mutex);
			set = obs_data_has_user_value(secrets->values, row_key(row));
			pthread_mutex_unlock(&secrets->mutex);
		}
		char name[128];
		snprintf(name, sizeof(name), "%s_state", row_key(row));
		/* OBS shows an info property's description when it has no value. */
		obs_properties_add_text(props, name, text(row, set ? ".Set" : ".None"), OBS_TEXT_INFO);
		obs_property_t *field = obs_properties_add_text(props, row_key(row), text(row, ""), OBS_TEXT_PASSWORD);
		obs_property_set_long_description(field, text(row, ".Description"));
		snprintf(name, sizeof(name), "%s_forget", row_key(row));
		obs_property_t *button = obs_properties_add_button2(props, name, text(row, ".Forget"), forget, data);
		obs_property_set_enabled(button, set);
	}
}
