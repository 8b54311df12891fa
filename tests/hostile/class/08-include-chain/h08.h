#include "h09.h"
