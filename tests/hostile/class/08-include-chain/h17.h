#include "../../SECRET.h"
