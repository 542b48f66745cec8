// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * log-limiter: a token bucket for the OBS log, so nothing the renderer does
 * can flood it. `burst` lines at once, then `per_second` (a fraction is fine:
 * 0.1 is one every 10 s); what is refused is counted for a later report.
 * Time is passed in (CLOCK_MONOTONIC ns), so tests can drive it. No libobs.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

struct log_limiter {
	double tokens;
	double burst;
	double per_second;
	uint64_t refilled_ns;
	uint64_t refused; /* since the last log_limiter_take_refused */
};

/* Starts full: the first `burst` lines pass at once. */
void log_limiter_init(struct log_limiter *limiter, double burst, double per_second, uint64_t now_ns);
/* True (and one token spent) if a line may be logged now; false counts it as refused. */
bool log_limiter_allow(struct log_limiter *limiter, uint64_t now_ns);
/* How many were refused since the last call, and starts counting again. */
uint64_t log_limiter_take_refused(struct log_limiter *limiter);
