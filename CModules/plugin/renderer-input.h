// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * renderer-input: what the renderer reads on its stdin (docs/architecture.md, "The
 * renderer's stdin"): the table of its channels and the one encoder of their lines.
 * stdin-queue delivers them.
 *
 * A channel is one kind of JSON line, {"<key>":…}. Only the newest line of each matters
 * (a line not written yet is replaced, a line equal to the last one changes nothing) and
 * every renderer the supervisor starts gets each channel's newest line, in the table's
 * order, settings first. Adding a channel: one row below, and whoever produces its line
 * encodes it here and hands it to renderer_supervisor_send. The table needs no libobs; the
 * encoder uses obs_data (never JSON by hand).
 */
#pragma once

#include <stdbool.h>

/* X(NAME, key): in the order a new renderer gets them. */
#define RENDERER_CHANNELS(X)                                                               \
	X(SETTINGS, "settings") /* the source's settings: first, the renderer needs them */ \
	X(ACTIVE, "active")     /* true|false: the source is shown somewhere */              \
	X(OBS, "obs")           /* OBS's streaming, recording, mic and locale (bar-live-state) */ \
	X(SPEECH, "speech")     /* the reading hotkeys' counters (source-commands) */        \
	X(ACTIONS, "actions")   /* pin/unpin hotkeys, "Open control page", "Forget" (source-commands) */

#define RENDERER_CHANNEL_ENTRY(name, key) RENDERER_CHANNEL_##name,
enum renderer_channel { RENDERER_CHANNELS(RENDERER_CHANNEL_ENTRY) RENDERER_CHANNEL_COUNT };
#undef RENDERER_CHANNEL_ENTRY

/* The longest settings line (with its '\n') the shim sends. A longer one is not sent: the
 * renderer keeps the previous settings, the log and the source's status say why. */
#define RENDERER_SETTINGS_LINE_MAX (1024 * 1024) /* room for a list of 10,000 NG words */

/* The channel's key: "settings", "obs", … */
const char *renderer_channel_key(enum renderer_channel channel);

struct obs_data;
/* {"<key>":<value>}\n, compact, from obs_data; bfree() it. */
char *renderer_input_object_line(enum renderer_channel channel, struct obs_data *value);
char *renderer_input_bool_line(enum renderer_channel channel, bool value);
