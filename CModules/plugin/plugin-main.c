/* The OBS module: registers the Comment Bar source. */
#include <obs-module.h>

#include "comment-bar-source.h"

OBS_DECLARE_MODULE()
OBS_MODULE_USE_DEFAULT_LOCALE("comment-bar", "en-US")

MODULE_EXPORT const char *obs_module_description(void)
{
	return "Comment Bar: a live stream's comments, gifts, clock and viewers, drawn by the commentbar renderer";
}

bool obs_module_load(void)
{
	comment_bar_source_register();
	return true;
}

void obs_module_unload(void)
{
	comment_bar_source_unregister();
}
