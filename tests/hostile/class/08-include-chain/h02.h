#include "h03.h"
