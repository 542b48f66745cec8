// SPDX-License-Identifier: GPL-2.0-or-later
/* The source's hotkeys and the control page button, as counters on the renderer's stdin
 * (see source-commands.h). */
#include "source-commands.h"

#include <pthread.h>

enum command {
	COMMAND_SKIP_READING,
	COMMAND_PAUSE_READING,
	COMMAND_PIN_NEWEST,
	COMMAND_UNPIN,
	COMMAND_OPEN_CONTROL,
	COMMAND_FORGET_SECRETS,
	COMMAND_SAVE_THEME,
	COMMAND_CLOSE_POLL,
	COMMAND_CALL_NEXT,
	COMMAND_DRAW_WINNER,
	COMMAND_COUNT,
};

/* One row a command: where its value goes, and the hotkey that presses it. */
static const struct command_row {
	enum renderer_channel channel;
	const char *field; /* its key in the channel's object */
	bool toggles;      /* a switch (true/false), else a counter */
	const char *hotkey; /* OBS's name for the hotkey; NULL: none (a button) */
	const char *label;  /* the locale key of the hotkey's description */
} rows[COMMAND_COUNT] = {
	[COMMAND_SKIP_READING] = {RENDERER_CHANNEL_SPEECH, "skip", false, "comment_bar.skip_reading", "SkipReading"},
	[COMMAND_PAUSE_READING] = {RENDERER_CHANNEL_SPEECH, "paused", true, "comment_bar.pause_reading", "PauseReading"},
	[COMMAND_PIN_NEWEST] = {RENDERER_CHANNEL_ACTIONS, "pin_newest", false, "comment_bar.pin_newest", "PinNewest"},
	[COMMAND_UNPIN] = {RENDERER_CHANNEL_ACTIONS, "unpin", false, "comment_bar.unpin", "Unpin"},
	[COMMAND_OPEN_CONTROL] = {RENDERER_CHANNEL_ACTIONS, "open_control", false, NULL, NULL},
	[COMMAND_FORGET_SECRETS] = {RENDERER_CHANNEL_ACTIONS, "forget_secrets", false, NULL, NULL},
	[COMMAND_SAVE_THEME] = {RENDERER_CHANNEL_ACTIONS, "save_theme", false, NULL, NULL},
	[COMMAND_CLOSE_POLL] = {RENDERER_CHANNEL_ACTIONS, "close_poll", false, "comment_bar.close_poll", "ClosePoll"},
	[COMMAND_CALL_NEXT] = {RENDERER_CHANNEL_ACTIONS, "queue_next", false, "comment_bar.queue_next", "CallNext"},
	[COMMAND_DRAW_WINNER] = {RENDERER_CHANNEL_ACTIONS, "giveaway_draw", false, "comment_bar.giveaway_draw", "DrawWinner"},
};

/* The file the newest "Save the look to a file" names: sent beside its counter. */
#define SAVE_THEME_PATH_FIELD "save_theme_path"

struct source_commands;
struct command_key {
	struct source_commands *owner;
	enum command command;
};

struct source_commands {
	struct renderer_supervisor *sup;
	/* Held while a press counts and its line is sent: lines of one channel go out in order. */
	pthread_mutex_t mutex;
	long long values[COMMAND_COUNT];
	char *save_theme_path; /* bstrdup'ed; NULL until a look is saved */
	struct command_key keys[COMMAND_COUNT];
	obs_hotkey_id hotkeys[COMMAND_COUNT];
};

/* The channel's line from every command of it; mutex held. */
static void send_channel(struct source_commands *commands, enum renderer_channel channel)
{
	obs_data_t *object = obs_data_create();
	for (size_t i = 0; i < COMMAND_COUNT; i++) {
		if (rows[i].channel != channel)
			continue;
		if (rows[i].toggles)
			obs_data_set_bool(object, rows[i].field, commands->values[i] != 0);
		else
			obs_data_set_int(object, rows[i].field, commands->values[i]);
	}
	if (channel == RENDERER_CHANNEL_ACTIONS)
		obs_data_set_string(object, SAVE_THEME_PATH_FIELD,
				    commands->save_theme_path ? commands->save_theme_path : "");
	char *line = renderer_input_object_line(channel, object);
	renderer_supervisor_send(commands->sup, channel, line);
	bfree(line);
	obs_data_release(object);
}

static void press(struct source_commands *commands, enum command command)
{
	pthread_mutex_lock(&commands->mutex);
	commands->values[command] = rows[command].toggles ? !commands->values[command] : commands->values[command] + 1;
	send_channel(commands, rows[command].channel);
	pthread_mutex_unlock(&commands->mutex);
}

static void hotkey_pressed(void *data, obs_hotkey_id id, obs_hotkey_t *hotkey, bool pressed)
{
	UNUSED_PARAMETER(id);
	UNUSED_PARAMETER(hotkey);
	const struct command_key *key = data;
	if (pressed)
		press(key->owner, key->command);
}

struct source_commands *source_commands_register(obs_source_t *source, struct renderer_supervisor *sup)
{
	struct source_commands *commands = bzalloc(sizeof(*commands));
	if (pthread_mutex_init(&commands->mutex, NULL) != 0) {
		bfree(commands);
		return NULL;
	}
	commands->sup = sup;
	pthread_mutex_lock(&commands->mutex);
	for (size_t i = 0; i < COMMAND_COUNT; i++) {
		commands->keys[i] = (struct command_key){commands, (enum command)i};
		commands->hotkeys[i] = rows[i].hotkey ? obs_hotkey_register_source(source, rows[i].hotkey,
										  obs_module_text(rows[i].label),
										  hotkey_pressed, &commands->keys[i])
						      : OBS_INVALID_HOTKEY_ID;
	}
	send_channel(commands, RENDERER_CHANNEL_SPEECH);
	send_channel(commands, RENDERER_CHANNEL_ACTIONS);
	pthread_mutex_unlock(&commands->mutex);
	return commands;
}

static bool open_control_clicked(obs_properties_t *props, obs_property_t *property, void *data)
{
	UNUSED_PARAMETER(props);
	UNUSED_PARAMETER(property);
	/* The renderer opens the page in the browser itself: the shim only counts the press. */
	if (data)
		press(data, COMMAND_OPEN_CONTROL);
	return false;
}

void source_commands_add_open_control(obs_properties_t *props, struct source_commands *commands)
{
	obs_property_t *button = obs_properties_add_button2(props, "open_control_page", obs_module_text("OpenControl"),
							    open_control_clicked, commands);
	obs_property_set_long_description(button, obs_module_text("OpenControl.Description"));
	obs_property_set_enabled(button, commands != NULL);
}

void source_commands_forget_secrets(struct source_commands *commands)
{
	if (commands)
		press(commands, COMMAND_FORGET_SECRETS);
}

void source_commands_save_theme(struct source_commands *commands, const char *path)
{
	if (!commands || !path || !*path)
		return;
	pthread_mutex_lock(&commands->mutex);
	bfree(commands->save_theme_path);
	commands->save_theme_path = bstrdup(path);
	commands->values[COMMAND_SAVE_THEME]++;
	send_channel(commands, RENDERER_CHANNEL_ACTIONS);
	pthread_mutex_unlock(&commands->mutex);
}

void source_commands_unregister(struct source_commands *commands)
{
	if (!commands)
		return;
	for (size_t i = 0; i < COMMAND_COUNT; i++)
		if (commands->hotkeys[i] != OBS_INVALID_HOTKEY_ID)
			obs_hotkey_unregister(commands->hotkeys[i]);
	pthread_mutex_destroy(&commands->mutex);
	bfree(commands->save_theme_path);
	bfree(commands);
}
