// SPDX-License-Identifier: GPL-2.0-or-later
/* test-secrets: the Mirrativ session never stays in the source's saved settings (what the
 * scene collection and obs-websocket's GetInputSettings hold): it moves to a 0600 file in a
 * 0700 folder under the module's config folder, the renderer still gets it, the properties
 * say whether one is set and never show it, "Forget" and removing the source delete it, and
 * a source made again from the saved settings (OBS restarted) finds it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "stubs.h"
#include "tests.h"

#define KEY "mirrativ_session"

static mode_t mode_of(const char *path)
{
	struct stat info;
	return stat(path, &info) == 0 ? info.st_mode & 07777 : (mode_t)-1;
}

/* The secret's file of the source whose settings these are; "" when it has no id. */
static void secret_file(obs_data_t *settings, char *path, size_t size)
{
	const char *id = obs_data_get_string(settings, "secrets_id");
	if (id && strlen(id) == 32)
		snprintf(path, size, "%s/secrets/%s." KEY, module_config_dir, id);
	else
		path[0] = '\0';
}

/* The file's text, or "" when there is none. */
static void file_text(const char *path, char *out, size_t size)
{
	out[0] = '\0';
	FILE *f = path[0] ? fopen(path, "r") : NULL;
	if (!f)
		return;
	const size_t n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	fclose(f);
}

struct file_wait {
	const char *path;
	const char *text; /* NULL: the file is gone */
};

static bool file_is(struct bar *b, const void *arg)
{
	(void)b;
	const struct file_wait *w = arg;
	if (!w->text)
		return access(w->path, F_OK) != 0;
	char text[256];
	file_text(w->path, text, sizeof(text));
	return strcmp(text, w->text) == 0;
}

/* The session in the newest settings line the fake got; "(none)" when there is none. */
static void sent_session(char *out, size_t size)
{
	static char line[1 << 20];
	snprintf(out, size, "(none)");
	if (!fake_input_find("{\"settings\":", line, sizeof(line), NULL, NULL))
		return;
	obs_data_t *root = obs_data_create_from_json(line);
	obs_data_t *settings = root ? obs_data_get_obj(root, "settings") : NULL;
	if (settings && obs_data_has_user_value(settings, KEY))
		snprintf(out, size, "%s", obs_data_get_string(settings, KEY));
	obs_data_release(settings);
	obs_data_release(root);
}

static bool sends_session(struct bar *b, const void *arg)
{
	(void)b;
	char session[256];
	sent_session(session, sizeof(session));
	return strcmp(session, arg) == 0;
}

/* What the properties show of the secret: its state line, the forget button's state, and
 * whether any text of theirs holds the value. */
struct shown {
	char state[256];
	bool forget_enabled;
	bool password_field;
	bool value_shown;
};

static struct shown properties_show(struct bar *b, const char *value)
{
	struct shown shown = {"", false, false, false};
	obs_properties_t *props = registered.get_properties(b->data);
	obs_property_t *state = obs_properties_get(props, KEY "_state");
	snprintf(shown.state, sizeof(shown.state), "%s", state ? obs_property_description(state) : "(missing)");
	obs_property_t *forget = obs_properties_get(props, KEY "_forget");
	shown.forget_enabled = forget && obs_property_enabled(forget);
	obs_property_t *field = obs_properties_get(props, KEY);
	shown.password_field = field && obs_property_text_type(field) == OBS_TEXT_PASSWORD;
	for (obs_property_t *p = obs_properties_first(props); p; obs_property_next(&p)) {
		const char *texts[] = {obs_property_description(p), obs_property_long_description(p)};
		for (size_t i = 0; i < 2; i++)
			shown.value_shown |= texts[i] && strstr(texts[i], value);
	}
	obs_properties_destroy(props);
	return shown;
}

static bool click(struct bar *b, const char *name)
{
	obs_properties_t *props = registered.get_properties(b->data);
	obs_property_t *button = obs_properties_get(props, name);
	const bool clicked = button && obs_property_enabled(button);
	if (clicked)
		obs_property_button_clicked(button, NULL);
	obs_properties_destroy(props);
	return clicked;
}

void test_secrets(void)
{
	use_renderer(opt.fake, "solid");
	fake_input_clear();
	/* An older scene collection: the session saved among the settings. */
	obs_data_t *settings = make_settings("demo", "secret", 128, 64);
	obs_data_set_string(settings, KEY, "hunter2-older");
	struct bar b = bar_create(settings);
	char path[1024], text[256], folder[1100];
	secret_file(b.settings, path, sizeof(path));
	snprintf(folder, sizeof(folder), "%s/secrets", module_config_dir);
	file_text(path, text, sizeof(text));
	const char *saved_json = obs_data_get_json(b.settings);
	check(!obs_data_has_user_value(b.settings, KEY) && !strstr(saved_json, "hunter2") && path[0] &&
		      strcmp(text, "hunter2-older") == 0 && mode_of(path) == 0600 && mode_of(folder) == 0700,
	      "an older scene collection's session moves at create into a 0600 file (0700 folder), out of the settings",
	      "file %s (%o) \"%s\", folder %o, settings %s", path, mode_of(path), text, mode_of(folder), saved_json);
	check(tick_until(&b, sends_session, "hunter2-older", 10) >= 0,
	      "the renderer still gets the session in its settings line", NULL);
	struct shown shown = properties_show(&b, "hunter2");
	check(strstr(shown.state, "Mirrativ session: set") && shown.forget_enabled && shown.password_field &&
		      !shown.value_shown,
	      "the properties say a session is set, offer Forget and an empty password field, never the value",
	      "\"%s\", forget %s", shown.state, shown.forget_enabled ? "on" : "off");

	/* A new session typed in the properties (or set by obs-websocket): out of the settings at
	 * once, into the file on the supervisor's thread. */
	obs_data_set_string(b.settings, KEY, "s3cret-new");
	bar_update(&b);
	const bool erased = !obs_data_has_user_value(b.settings, KEY);
	const struct file_wait new_file = {path, "s3cret-new"};
	const double written = tick_until(&b, file_is, &new_file, 10);
	check(erased && written >= 0 && tick_until(&b, sends_session, "s3cret-new", 10) >= 0 && mode_of(path) == 0600,
	      "a new session leaves the settings in update, replaces the file and reaches the renderer",
	      "erased %s, written after %.2f s", erased ? "yes" : "no", written);

	/* The empty field of a properties view opened again keeps the session. */
	const size_t settings_lines = fake_input_find("{\"settings\":", NULL, 0, NULL, NULL);
	obs_data_set_string(b.settings, KEY, "");
	bar_update(&b);
	tick_until(&b, always_false, NULL, 0.3);
	file_text(path, text, sizeof(text));
	check(fake_input_find("{\"settings\":", NULL, 0, NULL, NULL) == settings_lines && strcmp(text, "s3cret-new") == 0,
	      "an empty session field changes nothing: no new settings line, the file kept", "file \"%s\"", text);

	/* Forget. */
	const bool forgot = click(&b, KEY "_forget");
	const struct file_wait gone = {path, NULL};
	const double deleted = tick_until(&b, file_is, &gone, 10);
	const double resent = tick_until(&b, sends_session, "", 10);
	shown = properties_show(&b, "s3cret");
	check(forgot && deleted >= 0 && resent >= 0 && strstr(shown.state, "Mirrativ session: none") &&
		      !shown.forget_enabled,
	      "Forget deletes the file, the renderer gets no session, the properties say none",
	      "clicked %s, deleted after %.2f s, sent after %.2f s, \"%s\"", forgot ? "yes" : "no", deleted, resent,
	      shown.state);

	/* OBS quits (the source is destroyed, not removed), then loads the scene collection again. */
	obs_data_set_string(b.settings, KEY, "kept-across-restarts");
	bar_update(&b);
	const struct file_wait kept = {path, "kept-across-restarts"};
	tick_until(&b, file_is, &kept, 10);
	obs_data_t *saved = obs_data_create();
	obs_data_apply(saved, b.settings); /* what OBS saved: no session, the id */
	bar_destroy(&b);
	wait_supervisors_finished(10);
	file_text(path, text, sizeof(text));
	const bool survived = strcmp(text, "kept-across-restarts") == 0;
	fake_input_clear();
	b = bar_create(saved);
	check(survived && tick_until(&b, sends_session, "kept-across-restarts", 10) >= 0,
	      "a source destroyed without being removed keeps its file; made again from its saved settings, it sends "
	      "the session",
	      "file \"%s\"", text);

	/* A duplicate (OBS copies the settings, the id included) gets a file of its own. */
	obs_data_t *copy = obs_data_create();
	obs_data_apply(copy, b.settings);
	struct bar duplicate = bar_create(copy);
	char duplicate_path[1024], duplicate_text[256];
	secret_file(duplicate.settings, duplicate_path, sizeof(duplicate_path));
	file_text(duplicate_path, duplicate_text, sizeof(duplicate_text));
	check(duplicate.data && duplicate_path[0] && strcmp(duplicate_path, path) != 0 &&
		      strcmp(duplicate_text, "kept-across-restarts") == 0,
	      "a duplicated source gets a new id and a copy of the session: removing one never deletes the other's",
	      "%s \"%s\"", duplicate_path, duplicate_text);
	bar_destroy(&duplicate);
	unlink(duplicate_path);
	stub_source_settings = b.settings;

	/* The user removes the source: its file goes with it (no frontend here: every removal is final). */
	stub_remove_source();
	const double removed = tick_until(&b, file_is, &gone, 10);
	check(removed >= 0, "removing the source deletes its secret's file", "after %.2f s (-1: still there)", removed);
	bar_destroy(&b);
	wait_supervisors_finished(10);
}
