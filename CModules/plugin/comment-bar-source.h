// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

/* Finds the renderer and registers the `comment_bar_source` input. */
void comment_bar_source_register(void);
/* Module unload: waits (bounded) for stopping renderer supervisors, then frees
 * what register allocated. */
void comment_bar_source_unregister(void);
