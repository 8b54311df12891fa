#include "h07.h"
