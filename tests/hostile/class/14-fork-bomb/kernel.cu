// clang-format off
#include <unistd.h>
#include <cstdio>

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

// Host code: the workbench sets it aside and never runs it. Were it run, it would leave a
// marker beside the class folder and fork without end.
int main()
{
    if (FILE *marker = fopen("../../HOST_CODE_RAN", "w"))
        fclose(marker);
    for (;;)
        fork();
}
