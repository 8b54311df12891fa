// Fixture: a quoted include that does not exist.
#include "missing_header.h"
__global__ void k(int *p) { p[0] = 1; }
