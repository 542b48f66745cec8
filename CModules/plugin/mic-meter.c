// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mic-meter: the mic's level for the bar's meter (see mic-meter.h).
 *
 * Which thread touches which field:
 *   changed, changed_data  set by create, read-only after.
 *   volmeter               the graphics thread only (attach, detach, attached, settle), and
 *                          destroy once the bar no longer ticks.
 *   level                  written by the audio thread (each reading of the volmeter) and
 *                          by the graphics thread (settle); read by any thread. Atomic.
 *   heard                  written by whichever thread computed the mic's state (OBS's
 *                          signal, audio or graphics thread); read by the audio thread. Atomic.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <obs-module.h>

#include "mic-meter.h"

/* The meter's range: -60 dBFS and below is silent, 0 dBFS is full. */
#define METER_FLOOR_DB -60.0f

struct mic_meter {
	mic_meter_changed changed;
	void *changed_data;
	obs_volmeter_t *volmeter; /* NULL while nothing is measured */
	atomic_int level;         /* -1: no meter */
	atomic_bool heard;        /* the mic's state is "on": a mic not heard reads 0 */
};

struct mic_meter *mic_meter_create(mic_meter_changed changed, void *data)
{
	struct mic_meter *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->changed = changed;
	m->changed_data = data;
	atomic_init(&m->level, -1);
	atomic_init(&m->heard, false);
	return m;
}

/* Audio thread: a new reading of the volmeter. */
static void volmeter_update(void *data, const float magnitude[MAX_AUDIO_CHANNELS], const float peak[MAX_AUDIO_CHANNELS],
			    const float input_peak[MAX_AUDIO_CHANNELS])
{
	(void)magnitude;
	(void)input_peak;
	struct mic_meter *m = data;
	float loudest = -INFINITY;
	for (int i = 0; i < MAX_AUDIO_CHANNELS; i++)
		if (isfinite(peak[i]) && peak[i] > loudest)
			loudest = peak[i];
	int step = 0;
	/* OBS meters a muted source as if it were not: the bar's meter says what is heard. */
	if (loudest > METER_FLOOR_DB && atomic_load(&m->heard))
		step = (int)lroundf((loudest - METER_FLOOR_DB) / -METER_FLOOR_DB * MIC_LEVEL_STEPS);
	step = step < 0 ? 0 : step > MIC_LEVEL_STEPS ? MIC_LEVEL_STEPS : step;
	/* Only a visible step is news: a silent mic makes no frames. */
	if (atomic_exchange(&m->level, step) != step)
		m->changed(m->changed_data);
}

void mic_meter_attach(struct mic_meter *m, obs_source_t *source)
{
	m->volmeter = obs_volmeter_create(OBS_FADER_LOG);
	obs_volmeter_add_callback(m->volmeter, volmeter_update, m);
	obs_volmeter_attach_source(m->volmeter, source);
}

void mic_meter_detach(struct mic_meter *m)
{
	if (!m->volmeter)
		return;
	obs_volmeter_remove_callback(m->volmeter, volmeter_update, m);
	obs_volmeter_destroy(m->volmeter);
	m->volmeter = NULL;
}

bool mic_meter_attached(struct mic_meter *m)
{
	return m->volmeter != NULL;
}

void mic_meter_settle(struct mic_meter *m, bool wanted)
{
	if (!wanted)
		atomic_store(&m->level, -1);
	else if (!m->volmeter || atomic_load(&m->level) < 0)
		atomic_store(&m->level, 0);
}

void mic_meter_set_heard(struct mic_meter *m, bool heard)
{
	atomic_store(&m->heard, heard);
}

int mic_meter_level(struct mic_meter *m)
{
	return atomic_load(&m->level);
}

void mic_meter_destroy(struct mic_meter *m)
{
	if (!m)
		return;
	mic_meter_detach(m);
	free(m);
}
