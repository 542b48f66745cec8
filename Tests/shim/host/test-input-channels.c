// SPDX-License-Identifier: GPL-2.0-or-later
/* test-input-channels: the renderer's stdin channels as the fake renderer gets them: each
 * channel's newest line, in the table's order, once per change; OBS's locale in the obs line;
 * the hotkeys' and the buttons' counters (and the file "Save the look to a file" picked); and
 * the speech audio thread asleep while speech is off. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "harness.h"
#include "stubs.h"
#include "tests.h"

/* A number or bool member of the channel object of one stdin line ({"<channel>":{...}}). */
static long long member(const char *line, const char *channel, const char *key)
{
	obs_data_t *root = obs_data_create_from_json(line);
	obs_data_t *object = root ? obs_data_get_obj(root, channel) : NULL;
	long long value = -1;
	if (object && obs_data_has_user_value(object, key)) {
		obs_data_item_t *item = obs_data_item_byname(object, key);
		value = obs_data_item_gettype(item) == OBS_DATA_BOOLEAN ? obs_data_item_get_bool(item)
									  : obs_data_item_get_int(item);
		obs_data_item_release(&item);
	}
	obs_data_release(object);
	obs_data_release(root);
	return value;
}

struct wanted_line {
	const char *prefix;
	size_t count;
};

static bool fake_has_lines(struct bar *b, const void *arg)
{
	(void)b;
	const struct wanted_line *wanted = arg;
	return fake_input_find(wanted->prefix, NULL, 0, NULL, NULL) >= wanted->count;
}

/* The first line of each channel, in the order the fake got them. */
struct first_lines {
	char order[8][16];
	size_t count;
};

static bool note_channel(const char *line, void *arg)
{
	struct first_lines *seen = arg;
	char channel[16] = "";
	if (sscanf(line, "{\"%15[a-z]\"", channel) != 1)
		return true;
	for (size_t i = 0; i < seen->count; i++)
		if (strcmp(seen->order[i], channel) == 0)
			return true;
	if (seen->count < 8)
		snprintf(seen->order[seen->count++], sizeof(seen->order[0]), "%s", channel);
	return true;
}

/* Every actions line counts more presses than the one before: a stale line never follows a
 * newer one, and none is sent twice. */
struct rising {
	long long last;
	bool rising;
};

static bool check_rising(const char *line, void *arg)
{
	struct rising *r = arg;
	const long long presses = member(line, "actions", "pin_newest") + member(line, "actions", "unpin") +
				  member(line, "actions", "open_control") + member(line, "actions", "forget_secrets") +
				  member(line, "actions", "save_theme");
	r->rising &= presses > r->last;
	r->last = presses;
	return true;
}

static void test_order_and_baselines(void)
{
	use_renderer(opt.fake, "solid");
	fake_input_clear();
	struct bar b = bar_create(make_settings("demo", "channels", 128, 64));
	const struct wanted_line baseline = {"{\"actions\":", 1};
	const bool arrived = tick_until(&b, fake_has_lines, &baseline, 10) >= 0;
	struct first_lines seen = {0};
	fake_input_find("{", NULL, 0, note_channel, &seen);
	const bool ordered = seen.count == 5 && strcmp(seen.order[0], "settings") == 0 &&
			     strcmp(seen.order[1], "active") == 0 && strcmp(seen.order[2], "obs") == 0 &&
			     strcmp(seen.order[3], "speech") == 0 && strcmp(seen.order[4], "actions") == 0;
	check(arrived && ordered, "a new renderer gets each channel in the table's order: settings, active, obs, speech, actions",
	      "%zu channels, first %s, last %s", seen.count, seen.order[0], seen.count ? seen.order[seen.count - 1] : "");

	char line[4096] = "";
	fake_input_find("{\"obs\":", line, sizeof(line), NULL, NULL);
	check(strstr(line, "\"locale\":\"en-US\"") != NULL, "the obs line carries OBS's UI locale", "%s", line);
	char speech[256] = "", actions[256] = "";
	size_t speech_lines = fake_input_find("{\"speech\":", speech, sizeof(speech), NULL, NULL);
	size_t actions_lines = fake_input_find("{\"actions\":", actions, sizeof(actions), NULL, NULL);
	check(speech_lines == 1 && member(speech, "speech", "skip") == 0 && member(speech, "speech", "paused") == 0 &&
		      actions_lines == 1 && member(actions, "actions", "pin_newest") == 0 &&
		      member(actions, "actions", "unpin") == 0 && member(actions, "actions", "open_control") == 0 &&
		      member(actions, "actions", "forget_secrets") == 0,
	      "the renderer first gets the counters' baselines: {\"speech\":{\"skip\":0,\"paused\":false}} and "
	      "{\"actions\":{\"pin_newest\":0,\"unpin\":0,\"open_control\":0,\"forget_secrets\":0}}",
	      "%s %s", speech, actions);

	/* The hotkeys OBS shows, with their descriptions from the locale. */
	static const char *const names[][2] = {
		{"comment_bar.skip_reading", "Comment Bar: Skip reading"},
		{"comment_bar.pause_reading", "Comment Bar: Pause reading"},
		{"comment_bar.pin_newest", "Comment Bar: Pin the newest comment"},
		{"comment_bar.unpin", "Comment Bar: Unpin"},
		{"comment_bar.close_poll", "Comment Bar: Close the poll"},
		{"comment_bar.queue_next", "Comment Bar: Call the next viewer (参加型 queue)"},
		{"comment_bar.giveaway_draw", "Comment Bar: Draw a giveaway winner"},
	};
	int found = 0;
	for (size_t n = 0; n < 7; n++)
		for (size_t i = 0; i < stub_hotkey_count; i++)
			found += stub_hotkeys[i].registered && strcmp(stub_hotkeys[i].name, names[n][0]) == 0 &&
				 strcmp(stub_hotkeys[i].description, names[n][1]) == 0;
	check(found == 7 && stub_hotkeys_registered() == 7,
	      "the source registers seven hotkeys: skip, pause, pin the newest comment, unpin, close the poll, "
	      "call the next viewer, draw a winner",
	      "%d found", found);

	/* One press, one line; a press of another counter leaves the first as it was. */
	stub_press_hotkey("comment_bar.pin_newest");
	const struct wanted_line one_pin = {"{\"actions\":", 2};
	tick_until(&b, fake_has_lines, &one_pin, 10);
	tick_until(&b, always_false, NULL, 0.3);
	actions_lines = fake_input_find("{\"actions\":", actions, sizeof(actions), NULL, NULL);
	check(actions_lines == 2 && member(actions, "actions", "pin_newest") == 1 && member(actions, "actions", "unpin") == 0,
	      "\"Pin the newest comment\" sends one actions line with pin_newest 1", "%zu lines, last %s", actions_lines,
	      actions);
	stub_press_hotkey("comment_bar.unpin");
	stub_press_hotkey("comment_bar.skip_reading");
	stub_press_hotkey("comment_bar.pause_reading");
	obs_properties_t *props = registered.get_properties(b.data);
	obs_property_t *button = obs_properties_get(props, "open_control_page");
	const bool enabled = button && obs_property_enabled(button);
	if (button)
		obs_property_button_clicked(button, NULL);
	obs_properties_destroy(props);
	/* Lines not written yet are replaced by newer ones: presses close together may be one line. */
	tick_until(&b, always_false, NULL, 0.5);
	actions_lines = fake_input_find("{\"actions\":", actions, sizeof(actions), NULL, NULL);
	speech_lines = fake_input_find("{\"speech\":", speech, sizeof(speech), NULL, NULL);
	check(enabled && actions_lines >= 3 && actions_lines <= 4 && member(actions, "actions", "pin_newest") == 1 &&
		      member(actions, "actions", "unpin") == 1 && member(actions, "actions", "open_control") == 1,
	      "\"Unpin\" and the \"Open control page\" button count on from the others, at most a line each",
	      "%zu lines, last %s", actions_lines, actions);
	check(speech_lines >= 2 && speech_lines <= 3 && member(speech, "speech", "skip") == 1 &&
		      member(speech, "speech", "paused") == 1,
	      "the reading hotkeys go through their own channel: skip 1, paused", "%zu lines, last %s", speech_lines,
	      speech);

	/* "Save the look to a file" (issue 38): the file it picked goes to the renderer beside one
	 * more save_theme; the picker keeps no setting, so the same file can be saved again. */
	props = registered.get_properties(b.data);
	obs_property_t *save = obs_properties_get(props, "theme_save");
	obs_data_t *picked = obs_data_create();
	obs_data_set_string(picked, "theme_save", "/tmp/my look.json");
	const bool save_enabled = save && obs_property_enabled(save);
	if (save)
		obs_property_modified(save, picked);
	const bool kept = obs_data_has_user_value(picked, "theme_save");
	obs_data_release(picked);
	obs_properties_destroy(props);
	tick_until(&b, always_false, NULL, 0.5);
	fake_input_find("{\"actions\":", actions, sizeof(actions), NULL, NULL);
	obs_data_t *root = obs_data_create_from_json(actions);
	obs_data_t *object = root ? obs_data_get_obj(root, "actions") : NULL;
	const char *path = object ? obs_data_get_string(object, "save_theme_path") : "";
	check(save_enabled && !kept && member(actions, "actions", "save_theme") == 1 &&
		      strcmp(path, "/tmp/my look.json") == 0 && member(actions, "actions", "pin_newest") == 1,
	      "\"Save the look to a file\" sends save_theme 1 with the picked file, and keeps no setting",
	      "enabled %d, kept %d, last %s", save_enabled, kept, actions);
	obs_data_release(object);
	obs_data_release(root);

	/* Presses as fast as a hand never makes them: lines may be merged, never out of order. */
	for (int i = 0; i < 50; i++)
		stub_press_hotkey("comment_bar.pin_newest");
	tick_until(&b, always_false, NULL, 0.5);
	struct rising r = {-1, true};
	fake_input_find("{\"actions\":", actions, sizeof(actions), check_rising, &r);
	const size_t quick_lines = fake_input_find("{\"actions\":", NULL, 0, NULL, NULL);
	check(r.rising && member(actions, "actions", "pin_newest") == 51,
	      "50 quick presses: the renderer's last line counts 51, and no line is older than one before it",
	      "%zu lines in all, last %s", quick_lines, actions);
	bar_destroy(&b);
	wait_supervisors_finished(10);
	check(stub_hotkeys_registered() == 0, "destroy unregisters the hotkeys", "%zu left", stub_hotkeys_registered());
}

/* A renderer that reads nothing yet gets, once it reads, only each channel's newest line:
 * the presses made while its pipe was full become one line. */
static void test_newest_wins(void)
{
	setenv("COMMENTBAR_FAKE_READ_AFTER_MS", "2500", 1);
	use_renderer(opt.fake, "late");
	fake_input_clear();
	obs_data_t *settings = make_settings("demo", "late", 128, 64);
	enum { SERVER = 200000 }; /* a settings line three times what a pipe holds */
	char *server = malloc(SERVER + 1);
	memset(server, 's', SERVER);
	server[SERVER] = '\0';
	obs_data_set_string(settings, "server", server);
	free(server);
	struct bar b = bar_create(settings);
	const uint64_t start = now_ns();
	for (int i = 0; i < 10; i++)
		stub_press_hotkey("comment_bar.pin_newest");
	for (int i = 0; i < 3; i++)
		stub_press_hotkey("comment_bar.unpin");
	const double pressed_s = (double)(now_ns() - start) / 1e9;
	const struct wanted_line pins = {"{\"actions\":", 1};
	tick_until(&b, fake_has_lines, &pins, 15);
	tick_until(&b, always_false, NULL, 0.5);
	char actions[256] = "";
	const size_t lines = fake_input_find("{\"actions\":", actions, sizeof(actions), NULL, NULL);
	check(pressed_s < 2 && lines == 1 && member(actions, "actions", "pin_newest") == 10 &&
		      member(actions, "actions", "unpin") == 3,
	      "while the renderer's pipe is full, 13 presses replace each other: it gets one actions line, the newest",
	      "%zu lines (pressed in %.2f s), last %s", lines, pressed_s, actions);
	bar_destroy(&b);
	wait_supervisors_finished(10);
	unsetenv("COMMENTBAR_FAKE_READ_AFTER_MS");
}

void test_input_channels(void)
{
	test_order_and_baselines();
	test_newest_wins();
}

/* The audio thread's wake-ups in half a second, after `speech` is set to speech ("true",
 * "false"; NULL: as it is) and has settled. The bar is not ticked meanwhile. */
static long long audio_wakeups(struct bar *b, const char *speech)
{
	if (speech) {
		obs_data_set_bool(b->settings, "speech", strcmp(speech, "true") == 0);
		bar_update(b);
	}
	sleep_ms(100);
	const long long before = thread_wakeups("comment-bar-aud");
	sleep_ms(500);
	return thread_wakeups("comment-bar-aud") - before;
}

/* The speech audio thread is asleep while speech is off: it wakes for nothing. Counted by
 * the kernel (voluntary context switches), not timed: asleep is 0, a 10 ms ticker ~50. */
void test_speech_thread_sleeps(void)
{
	use_renderer(opt.fake, "solid");
	struct bar b = bar_create(make_settings("demo", "quiet", 128, 64));
	tick_until(&b, has_texture, NULL, 10); /* the pool reached the audio thread */
	const int threads = plugin_threads("comment-bar-aud");
	const long long off = audio_wakeups(&b, NULL);
	const long long on = audio_wakeups(&b, "true");
	const long long off_again = audio_wakeups(&b, "false");
	check(threads == 1 && off <= 1 && off_again <= 1 && on >= 10,
	      "the speech audio thread sleeps while speech is off and ticks while it is on",
	      "%d thread(s); wake-ups in 0.5 s: %lld off, %lld on, %lld off again", threads, off, on, off_again);

	const int before_destroy = plugin_threads(NULL);
	bar_destroy(&b);
	const double finished = wait_supervisors_finished(10);
	check(before_destroy == 2 && finished >= 0 && plugin_threads(NULL) == 0,
	      "destroy ends both of the source's threads (supervisor and audio)",
	      "%d threads before destroy, %d left", before_destroy, plugin_threads(NULL));
}
