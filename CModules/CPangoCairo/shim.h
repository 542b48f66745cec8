#include <pango/pangocairo.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
