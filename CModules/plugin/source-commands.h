// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source-commands: what the streamer tells the renderer besides the settings: the
 * source's OBS hotkeys "Skip reading", "Pause reading", "Pin the newest comment", "Unpin",
 * and the audience's "Close the poll", "Call the next viewer" and "Draw a winner", the properties' buttons "Open control page" and "Forget" (the secrets, whose
 * file the renderer keeps), and "Save the look to a file" (the file beside its counter: the
 * renderer writes the look it draws there). Each is a counter (or, for the pause, a switch) in the line of
 * its channel (renderer-input.h):
 *   {"speech":{"skip":N,"paused":B}}
 *   {"actions":{"pin_newest":N,"unpin":N,"open_control":N,"forget_secrets":N,"save_theme":N,
 *                "save_theme_path":"…","close_poll":N,"queue_next":N,"giveaway_draw":N}}
 * Counters count the presses since the source was made, so a line sent again is never a
 * second press; each channel's line is sent once at the start too, so that every renderer
 * gets the current counts first (a baseline) and acts once per counter that goes up after.
 */
#pragma once

#include <obs-module.h>

#include "renderer-supervisor.h"

struct source_commands;

/* Registers the hotkeys and sends both channels' first lines. NULL when out of memory. */
struct source_commands *source_commands_register(obs_source_t *source, struct renderer_supervisor *sup);
/* The "Open control page" button, in props; commands may be NULL (no source: disabled). */
void source_commands_add_open_control(obs_properties_t *props, struct source_commands *commands);
/* The secrets' "Forget" button (source-secrets): one more forget_secrets. NULL is fine. */
void source_commands_forget_secrets(struct source_commands *commands);
/* "Save the look to a file": one more save_theme, with the file. NULL commands or path is fine. */
void source_commands_save_theme(struct source_commands *commands, const char *path);
/* Before the supervisor is stopped. NULL is fine. */
void source_commands_unregister(struct source_commands *commands);
