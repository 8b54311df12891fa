// Fixture: errors reported inside templates, with "detected during" instantiation notes,
// single-line, multi-line through a header, and one instantiated by a name expression.
#include "template_notes.h"

template <typename T>
__global__ void bad(T *p)
{
    p[0] = p[1].value;
}
template __global__ void bad<int>(int *);

template <typename T>
__global__ void deep(T *data)
{
    data[0] = viaHeader(data[1], 2);
}
template __global__ void deep<float>(float *);
