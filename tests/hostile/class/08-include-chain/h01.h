#include "h02.h"
