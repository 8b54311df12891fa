// Compiles only with -D ELEMENT=float and the folder of inc/ on the include path.
#include "element.h"

#ifndef ELEMENT
#error ELEMENT must be defined with -D
#endif

extern "C" __global__ void fill(ELEMENT *out, ELEMENT value)
{
    out[threadIdx.x] = value + ELEMENT(ELEMENT_OFFSET);
}
