// SPDX-License-Identifier: GPL-2.0-or-later
/* test-secrets: the Mirrativ session never stays in the source's saved settings (what the
 * scene collection and obs-websocket's GetInputSettings hold): a session found in them leaves
 * them at once and reaches the renderer in one settings line, with the id of the renderer's
 * file and a flag saying one is saved; the properties say so and never show it; "Forget"
 * clears the flag and counts on the actions channel. The shim keeps no file of its own; the
 * real renderer does (test_secrets_real_renderer). */
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
#define SAVED KEY "_saved"

/* The settings object of one stdin line (obs_data_release it), or NULL. */
static obs_data_t *settings_of(const char *line)
{
	obs_data_t *root = obs_data_create_from_json(line);
	obs_data_t *settings = root ? obs_data_get_obj(root, "settings") : NULL;
	obs_data_release(root);
	return settings;
}

/* What the settings lines the fake got say of the secret. */
struct sent {
	const char *value;    /* the session looked for */
	size_t lines;         /* settings lines in all */
	size_t with_value;    /* of them, those holding value */
	char id[64];          /* the last line's secrets_id */
	bool saved;           /* the last line's mirrativ_session_saved */
	char session[256];    /* the last line's mirrativ_session */
};

static bool note_settings(const char *line, void *arg)
{
	struct sent *sent = arg;
	obs_data_t *settings = settings_of(line);
	if (!settings)
		return true;
	sent->lines++;
	sent->with_value += strstr(line, sent->value) != NULL;
	snprintf(sent->id, sizeof(sent->id), "%s", obs_data_get_string(settings, "secrets_id"));
	sent->saved = obs_data_get_bool(settings, SAVED);
	snprintf(sent->session, sizeof(sent->session), "%s", obs_data_get_string(settings, KEY));
	obs_data_release(settings);
	return true;
}

static struct sent sent_lines(const char *value)
{
	struct sent sent = {.value = value};
	fake_input_find("{\"settings\":", NULL, 0, note_settings, &sent);
	return sent;
}

struct wanted_session {
	const char *value;
	size_t lines; /* at least this many settings lines */
};

static bool sends(struct bar *b, const void *arg)
{
	(void)b;
	const struct wanted_session *wanted = arg;
	const struct sent sent = sent_lines(wanted->value);
	return sent.lines >= wanted->lines && strcmp(sent.session, wanted->value) == 0;
}

static bool valid_id(const char *id)
{
	size_t n = 0;
	while (id[n] && strchr("0123456789abcdef", id[n]))
		n++;
	return n == 32 && id[n] == '\0';
}

/* What the properties show of the secret. */
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

/* forget_secrets in the newest actions line; -1 when there is none. */
static long long forget_count(void)
{
	char line[512];
	if (!fake_input_find("{\"actions\":", line, sizeof(line), NULL, NULL))
		return -1;
	obs_data_t *root = obs_data_create_from_json(line);
	obs_data_t *actions = root ? obs_data_get_obj(root, "actions") : NULL;
	const long long count =
		actions && obs_data_has_user_value(actions, "forget_secrets") ? obs_data_get_int(actions, "forget_secrets") : -1;
	obs_data_release(actions);
	obs_data_release(root);
	return count;
}

static bool forget_is(struct bar *b, const void *arg)
{
	(void)b;
	return forget_count() == *(const long long *)arg;
}

void test_secrets(void)
{
	use_renderer(opt.fake, "solid");
	fake_input_clear();
	/* An older scene collection: the session saved among the settings. */
	obs_data_t *settings = make_settings("demo", "secret", 128, 64);
	obs_data_set_string(settings, KEY, "hunter2-older");
	struct bar b = bar_create(settings);
	const char *saved_json = obs_data_get_json(b.settings);
	char id[64];
	snprintf(id, sizeof(id), "%s", obs_data_get_string(b.settings, "secrets_id"));
	check(!obs_data_has_user_value(b.settings, KEY) && !strstr(saved_json, "hunter2") &&
		      obs_data_get_bool(b.settings, SAVED) && valid_id(id),
	      "an older scene collection's session leaves the settings at create; they say one is saved, and its id",
	      "settings %s", saved_json);
	const struct wanted_session older = {"hunter2-older", 1};
	tick_until(&b, sends, &older, 10);
	struct sent sent = sent_lines("hunter2-older");
	check(sent.with_value == 1 && strcmp(sent.id, id) == 0 && sent.saved,
	      "the renderer gets the session in its settings line, with the file's id and mirrativ_session_saved",
	      "%zu of %zu lines hold it; id \"%s\", saved %d", sent.with_value, sent.lines, sent.id, sent.saved);
	struct shown shown = properties_show(&b, "hunter2");
	check(strstr(shown.state, "Mirrativ session: saved") && shown.forget_enabled && shown.password_field &&
		      !shown.value_shown,
	      "the properties say a session is saved, offer Forget and an empty password field, never the value",
	      "\"%s\", forget %s", shown.state, shown.forget_enabled ? "on" : "off");

	/* Another change: the line says a session is saved, and holds none. */
	obs_data_set_int(b.settings, "max_lines", 4);
	bar_update(&b);
	const struct wanted_session no_session = {"", 2};
	tick_until(&b, sends, &no_session, 10);
	sent = sent_lines("hunter2-older");
	check(sent.lines == 2 && sent.with_value == 1 && sent.saved && strcmp(sent.id, id) == 0,
	      "a later settings line holds no session, only its id and the saved flag: the session was sent once",
	      "%zu of %zu lines hold it", sent.with_value, sent.lines);

	/* A new session typed in the properties (or set by obs-websocket): out of the settings
	 * when update returns, to the renderer exactly once, under the same id. */
	obs_data_set_string(b.settings, KEY, "s3cret-new");
	bar_update(&b);
	const bool erased = !obs_data_has_user_value(b.settings, KEY) && !strstr(obs_data_get_json(b.settings), "s3cret");
	const struct wanted_session fresh = {"s3cret-new", 3};
	tick_until(&b, sends, &fresh, 10);
	obs_data_set_int(b.settings, "max_lines", 5);
	bar_update(&b);
	const struct wanted_session after = {"", 4};
	tick_until(&b, sends, &after, 10);
	sent = sent_lines("s3cret-new");
	check(erased && sent.with_value == 1 && sent.lines == 4 && strcmp(sent.id, id) == 0,
	      "a new session leaves the settings in update and reaches the renderer in exactly one line, same id",
	      "erased %s; %zu of %zu lines hold it, id \"%s\"", erased ? "yes" : "no", sent.with_value, sent.lines,
	      sent.id);

	/* The empty field of a properties view opened again changes nothing. */
	obs_data_set_string(b.settings, KEY, "");
	bar_update(&b);
	tick_until(&b, always_false, NULL, 0.3);
	check(sent_lines("").lines == 4 && obs_data_get_bool(b.settings, SAVED),
	      "an empty session field changes nothing: no new settings line, still saved", NULL);

	/* Forget: the flag goes, the renderer is told on the actions channel. */
	const long long none = 0, once = 1;
	const bool baseline = forget_count() == none;
	obs_properties_t *props = registered.get_properties(b.data);
	obs_property_t *button = obs_properties_get(props, KEY "_forget");
	if (button)
		obs_property_button_clicked(button, b.data);
	obs_properties_destroy(props);
	const double counted = tick_until(&b, forget_is, &once, 10);
	const struct wanted_session forgotten = {"", 5};
	tick_until(&b, sends, &forgotten, 10);
	sent = sent_lines("s3cret-new");
	shown = properties_show(&b, "s3cret");
	check(button && baseline && counted >= 0 && !obs_data_get_bool(b.settings, SAVED) && !sent.saved &&
		      strcmp(sent.id, id) == 0 && strstr(shown.state, "Mirrativ session: none") && !shown.forget_enabled,
	      "Forget counts forget_secrets 0 -> 1, clears the saved flag in the settings and the line, the properties "
	      "say none",
	      "baseline %s, counted after %.2f s, line saved %d, \"%s\"", baseline ? "0" : "missing", counted, sent.saved,
	      shown.state);

	/* OBS saved the settings and loads them again: they name the file, the renderer reads it. */
	obs_data_set_string(b.settings, KEY, "kept-across-restarts");
	bar_update(&b);
	obs_data_t *saved = obs_data_create();
	obs_data_apply(saved, b.settings);
	bar_destroy(&b);
	wait_supervisors_finished(10);
	fake_input_clear();
	b = bar_create(saved);
	const struct wanted_session again = {"", 1};
	tick_until(&b, sends, &again, 10);
	sent = sent_lines("kept-across-restarts");
	check(!strstr(obs_data_get_json(b.settings), "kept-across") && sent.lines >= 1 && sent.with_value == 0 &&
		      sent.saved && strcmp(sent.id, id) == 0,
	      "made again from its saved settings, the source sends the id and the saved flag, never the session",
	      "%zu lines, %zu with it", sent.lines, sent.with_value);
	bar_destroy(&b);
	wait_supervisors_finished(10);
}

/* ---- with the real renderer: it keeps the file the shim names ---- */

static mode_t mode_of(const char *path)
{
	struct stat info;
	return lstat(path, &info) == 0 ? info.st_mode & 07777 : (mode_t)-1;
}

struct file_wait {
	const char *path;
	const char *holds; /* NULL: the file is gone */
};

static bool file_is(struct bar *b, const void *arg)
{
	(void)b;
	const struct file_wait *w = arg;
	if (!w->holds)
		return access(w->path, F_OK) != 0;
	char text[512] = "";
	FILE *f = fopen(w->path, "r");
	if (!f)
		return false;
	text[fread(text, 1, sizeof(text) - 1, f)] = '\0';
	fclose(f);
	return strstr(text, w->holds) != NULL;
}

/* The session typed once reaches the renderer, which saves it in a 0600 file (0700 folder)
 * under $XDG_CONFIG_HOME/comment-bar/secrets/<secrets_id>; the file outlives the source (OBS
 * quitting destroys it); Forget has the renderer delete it; the OBS log never shows it. */
void test_secrets_real_renderer(void)
{
	char config[1024], clean[1100], folder[1100], path[1200];
	/* Absolute: the renderer ignores a relative XDG_CONFIG_HOME (the XDG rule) and uses HOME. */
	char *work = realpath(opt.work, NULL);
	snprintf(config, sizeof(config), "%s/config-home", work ? work : "/nonexistent");
	free(work);
	snprintf(clean, sizeof(clean), "rm -rf '%s'", config);
	if (system(clean) != 0)
		fprintf(stderr, "could not empty %s\n", config);
	setenv("XDG_CONFIG_HOME", config, 1);
	use_renderer(opt.renderer, NULL);
	const size_t mark = log_mark();
	obs_data_t *settings = make_settings("demo", "secret", 128, 64);
	obs_data_set_string(settings, KEY, "e2e-s3ssion-value");
	struct bar b = bar_create(settings);
	snprintf(folder, sizeof(folder), "%s/comment-bar/secrets", config);
	snprintf(path, sizeof(path), "%s/%s", folder, obs_data_get_string(b.settings, "secrets_id"));
	const struct file_wait saved = {path, "e2e-s3ssion-value"};
	const double took = tick_until(&b, file_is, &saved, 15);
	check(took >= 0 && mode_of(path) == 0600 && mode_of(folder) == 0700,
	      "the real renderer saves the session it was sent in a 0600 file (0700 folder) named by secrets_id",
	      "%s after %.2f s, mode %o, folder %o", path, took, mode_of(path), mode_of(folder));

	obs_data_t *kept = obs_data_create();
	obs_data_apply(kept, b.settings);
	bar_destroy(&b);
	wait_supervisors_finished(10);
	b = bar_create(kept);
	tick_until(&b, has_texture, NULL, 15);
	const bool left = file_is(&b, &saved);
	check(left, "destroying the source (as OBS does at exit) leaves the file", NULL);

	obs_properties_t *props = registered.get_properties(b.data);
	obs_property_t *button = obs_properties_get(props, KEY "_forget");
	if (button)
		obs_property_button_clicked(button, b.data);
	obs_properties_destroy(props);
	const struct file_wait gone = {path, NULL};
	const double deleted = tick_until(&b, file_is, &gone, 15);
	check(left && button && deleted >= 0, "Forget has the renderer delete the file", "after %.2f s", deleted);
	bar_destroy(&b);
	wait_supervisors_finished(10);
	char shown[512] = "";
	check(log_find(mark, "e2e-s3ssion", shown, sizeof(shown)) == 0 && log_find(mark, "secrets: ", NULL, 0) >= 1,
	      "the OBS log has the renderer's secrets lines, never the session", "%s", shown);
	unsetenv("XDG_CONFIG_HOME");
}
