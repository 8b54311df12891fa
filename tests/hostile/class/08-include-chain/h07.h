#include "h08.h"
