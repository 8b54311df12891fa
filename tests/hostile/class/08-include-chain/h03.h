#include "h04.h"
