// Includes a header from its own folder without any -I.
#include "neighbour.h"

extern "C" __global__ void neighbour(int *out)
{
    out[threadIdx.x] = NEIGHBOUR_VALUE;
}
