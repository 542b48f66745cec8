#pragma once

/* Finds the renderer and registers the `comment_bar_source` input. */
void comment_bar_source_register(void);
/* Frees what register allocated (module unload). */
void comment_bar_source_unregister(void);
