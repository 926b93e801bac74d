// The header's inline function is the whole module; this file gives the target a translation unit.
#include "cache_hints.h"
