// SPDX-License-Identifier: GPL-2.0-or-later
#include "speech-hotkeys.h"

#include <stdatomic.h>
#include <stdio.h>

struct speech_hotkeys {
	struct renderer_supervisor *sup;
	obs_hotkey_id skip;
	obs_hotkey_id pause;
	atomic_uint skips;
	atomic_bool paused;
};

static void send_state(struct speech_hotkeys *keys)
{
	char line[96];
	snprintf(line, sizeof(line), "{\"speech\":{\"skip\":%u,\"paused\":%s}}\n", atomic_load(&keys->skips),
		 atomic_load(&keys->paused) ? "true" : "false");
	renderer_supervisor_set_speech_state(keys->sup, line);
}

static void skip_pressed(void *data, obs_hotkey_id id, obs_hotkey_t *hotkey, bool pressed)
{
	UNUSED_PARAMETER(id);
	UNUSED_PARAMETER(hotkey);
	struct speech_hotkeys *keys = data;
	if (!pressed)
		return;
	atomic_fetch_add(&keys->skips, 1);
	send_state(keys);
}

static void pause_pressed(void *data, obs_hotkey_id id, obs_hotkey_t *hotkey, bool pressed)
{
	UNUSED_PARAMETER(id);
	UNUSED_PARAMETER(hotkey);
	struct speech_hotkeys *keys = data;
	if (!pressed)
		return;
	atomic_store(&keys->paused, !atomic_load(&keys->paused));
	send_state(keys);
}

struct speech_hotkeys *speech_hotkeys_register(obs_source_t *source, struct renderer_supervisor *sup)
{
	struct speech_hotkeys *keys = bzalloc(sizeof(*keys));
	keys->sup = sup;
	atomic_init(&keys->skips, 0);
	atomic_init(&keys->paused, false);
	keys->skip = obs_hotkey_register_source(source, "comment_bar.skip_reading", obs_module_text("SkipReading"),
						skip_pressed, keys);
	keys->pause = obs_hotkey_register_source(source, "comment_bar.pause_reading", obs_module_text("PauseReading"),
						 pause_pressed, keys);
	return keys;
}

void speech_hotkeys_unregister(struct speech_hotkeys *keys)
{
	if (!keys)
		return;
	obs_hotkey_unregister(keys->skip);
	obs_hotkey_unregister(keys->pause);
	bfree(keys);
}
