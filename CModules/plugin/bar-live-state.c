// SPDX-License-Identifier: GPL-2.0-or-later
/* bar-live-state: OBS's own state for one bar's renderer (see bar-live-state.h). */
#include <stdlib.h>

#include <obs-module.h>

#include "bar-live-state.h"
#include "mic-watch.h"
#include "on-air.h"
#include "renderer-supervisor.h"

struct bar_live_state {
	struct renderer_supervisor *supervisor;
	struct mic_watch *mic;
	void (*mic_renamed)(void *data, const char *new_name);
	void *mic_renamed_data;
};

/* Any thread: the newest state as one stdin line, handed to the supervisor. */
static void send_state(struct bar_live_state *live, const struct on_air_state *air)
{
	enum mic_state mic = MIC_STATE_UNKNOWN;
	int level = -1;
	if (live->mic)
		mic_watch_read(live->mic, &mic, &level);
	obs_data_t *obs = obs_data_create();
	obs_data_set_bool(obs, "frontend", air->frontend);
	obs_data_set_bool(obs, "streaming", air->streaming);
	if (air->streaming)
		obs_data_set_double(obs, "streaming_start", air->streaming_start);
	obs_data_set_bool(obs, "recording", air->recording);
	if (air->recording)
		obs_data_set_double(obs, "recording_start", air->recording_start);
	obs_data_set_string(obs, "mic", mic_state_name(mic));
	obs_data_set_int(obs, "mic_level", level);
	/* OBS's UI language: the renderer's words for OBS's user (the 初見 label's default). */
	const char *locale = obs_get_locale();
	obs_data_set_string(obs, "locale", locale ? locale : "");
	char *line = renderer_input_object_line(RENDERER_CHANNEL_OBS, obs);
	obs_data_release(obs);
	renderer_supervisor_send(live->supervisor, RENDERER_CHANNEL_OBS, line);
	bfree(line);
}

static void on_air_changed(void *data, const struct on_air_state *air)
{
	send_state(data, air);
}

static void mic_renamed(void *data, const char *new_name)
{
	struct bar_live_state *live = data;
	if (live->mic_renamed)
		live->mic_renamed(live->mic_renamed_data, new_name);
}

static void mic_changed(void *data)
{
	const struct on_air_state air = on_air_get();
	send_state(data, &air);
}

struct bar_live_state *bar_live_state_create(const char *bar_name, struct renderer_supervisor *supervisor,
					     void (*on_mic_renamed)(void *data, const char *new_name), void *data)
{
	struct bar_live_state *live = calloc(1, sizeof(*live));
	if (!live)
		return NULL;
	live->supervisor = supervisor;
	live->mic_renamed = on_mic_renamed;
	live->mic_renamed_data = data;
	live->mic = mic_watch_create(bar_name, mic_changed, mic_renamed, live);
	on_air_listen(on_air_changed, live);
	mic_changed(live);
	return live;
}

void bar_live_state_configure(struct bar_live_state *live, const char *mic_source, bool mic_meter)
{
	if (live && live->mic)
		mic_watch_configure(live->mic, mic_source, mic_meter);
}

void bar_live_state_tick(struct bar_live_state *live)
{
	if (live && live->mic)
		mic_watch_tick(live->mic);
}

void bar_live_state_destroy(struct bar_live_state *live)
{
	if (!live)
		return;
	on_air_unlisten(on_air_changed, live);
	mic_watch_destroy(live->mic);
	free(live);
}
