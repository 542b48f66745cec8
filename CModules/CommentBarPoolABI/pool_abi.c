// SPDX-License-Identifier: GPL-2.0-or-later
/* Compile-time checks that the layout in docs/pool-abi.md is the layout here. */
#include "commentbar_pool.h"

_Static_assert(offsetof(struct cb_pool_header, handoff) == 48, "handoff offset");
_Static_assert(offsetof(struct cb_pool_header, heartbeat_ns) == 64, "heartbeat offset");
_Static_assert(offsetof(struct cb_pool_header, slot_sequence) == 72, "slot_sequence offset");
_Static_assert(offsetof(struct cb_pool_header, status_code) == 96, "status_code offset");
_Static_assert(offsetof(struct cb_pool_header, status_text) == 104, "status_text offset");
_Static_assert(sizeof(struct cb_pool_header) <= CB_POOL_HEADER_SIZE, "header fits its page");
_Static_assert(offsetof(struct cb_pool_header, audio_offset) == 264, "audio_offset offset");
_Static_assert(offsetof(struct cb_pool_header, audio_size) == 272, "audio_size offset");
_Static_assert(offsetof(struct cb_audio_ring, write_frames) == 32, "write_frames offset");
_Static_assert(offsetof(struct cb_audio_ring, read_frames) == 40, "read_frames offset");
_Static_assert(offsetof(struct cb_audio_ring, discard_before) == 48, "discard_before offset");
_Static_assert(sizeof(struct cb_audio_ring) <= CB_AUDIO_HEADER_SIZE, "ring header fits");
