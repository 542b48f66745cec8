// SPDX-License-Identifier: GPL-2.0-or-later
#include "log-limiter.h"

void log_limiter_init(struct log_limiter *limiter, double burst, double per_second, uint64_t now_ns)
{
	limiter->tokens = burst;
	limiter->burst = burst;
	limiter->per_second = per_second;
	limiter->refilled_ns = now_ns;
	limiter->refused = 0;
}

bool log_limiter_allow(struct log_limiter *limiter, uint64_t now_ns)
{
	/* A clock that went backwards (it cannot, CLOCK_MONOTONIC; but a caller's
	 * might) refills nothing rather than wrapping around. */
	if (now_ns > limiter->refilled_ns) {
		limiter->tokens += (double)(now_ns - limiter->refilled_ns) / 1e9 * limiter->per_second;
		if (limiter->tokens > limiter->burst)
			limiter->tokens = limiter->burst;
		limiter->refilled_ns = now_ns;
	}
	if (limiter->tokens < 1) {
		limiter->refused++;
		return false;
	}
	limiter->tokens -= 1;
	return true;
}

uint64_t log_limiter_take_refused(struct log_limiter *limiter)
{
	const uint64_t refused = limiter->refused;
	limiter->refused = 0;
	return refused;
}
