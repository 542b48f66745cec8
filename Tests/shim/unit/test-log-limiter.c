// SPDX-License-Identifier: GPL-2.0-or-later
/* The token bucket every rate-limited log line goes through. */
#include <stdio.h>

#include "check.h"
#include "log-limiter.h"
#include "unit-tests.h"

#define S 1000000000ull

static int allowed(struct log_limiter *limiter, uint64_t now, int tries)
{
	int count = 0;
	for (int i = 0; i < tries; i++)
		count += log_limiter_allow(limiter, now);
	return count;
}

void test_log_limiter(void)
{
	struct log_limiter lines;
	const uint64_t t0 = 5 * S;
	log_limiter_init(&lines, 200, 20, t0);
	const int burst = allowed(&lines, t0, 300);
	check(burst == 200 && log_limiter_take_refused(&lines) == 100,
	      "log limiter: a burst of 200 passes at once, the rest are counted as refused", "%d passed", burst);
	check(log_limiter_take_refused(&lines) == 0, "log limiter: taking the refused count starts it again", NULL);
	const int after_half_second = allowed(&lines, t0 + S / 2, 50);
	const int after_second = allowed(&lines, t0 + S + S / 2, 50);
	check(after_half_second == 10 && after_second == 20 && log_limiter_take_refused(&lines) == 70,
	      "log limiter: it refills 20 a second", "%d after 0.5 s, %d after 1 s more", after_half_second,
	      after_second);
	const int after_long_quiet = allowed(&lines, t0 + 1000 * S, 1000);
	check(after_long_quiet == 200, "log limiter: a long quiet time refills no more than the burst", "%d passed",
	      after_long_quiet);
	const int backwards = allowed(&lines, t0, 10);
	check(backwards == 0, "log limiter: a clock going backwards refills nothing", "%d passed", backwards);

	struct log_limiter reports;
	log_limiter_init(&reports, 1, 0.1, t0);
	const bool first = log_limiter_allow(&reports, t0);
	const bool too_soon = log_limiter_allow(&reports, t0 + 9 * S);
	const bool ten_seconds = log_limiter_allow(&reports, t0 + 10 * S + 1);
	check(first && !too_soon && ten_seconds, "log limiter: one report at once, then one every 10 s",
	      "at once %d, after 9 s %d, after 10 s %d", first, too_soon, ten_seconds);
}
