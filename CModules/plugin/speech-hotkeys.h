// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * speech-hotkeys: the source's OBS hotkeys "Skip reading" and "Pause reading"
 * (obs_hotkey_register_source). Each press sends the renderer one
 * {"speech":{"skip":N,"paused":B}} line, N counting the skips so far, so a
 * line sent again is never a second skip.
 */
#pragma once

#include <obs-module.h>

#include "renderer-supervisor.h"

struct speech_hotkeys;

struct speech_hotkeys *speech_hotkeys_register(obs_source_t *source, struct renderer_supervisor *sup);
/* Before the supervisor is stopped. NULL is fine. */
void speech_hotkeys_unregister(struct speech_hotkeys *keys);
