#include "h05.h"
