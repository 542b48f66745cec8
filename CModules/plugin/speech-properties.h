/*
 * speech-properties: the "Read comments aloud" group of the source's
 * properties (a checkable group: its checkbox is the `speech` setting), from
 * the settings table's speech rows.
 */
#pragma once

#include <obs-module.h>

void speech_properties_add(obs_properties_t *props);
