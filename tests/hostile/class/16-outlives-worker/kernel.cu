#include <cstdio>
#include <unistd.h>

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

// Host code: a daemon that would outlive whatever ran it and keep a marker fresh.
int main()
{
    if (fork() == 0) {
        setsid();
        for (;;) {
            if (FILE *marker = fopen("../../HOST_CODE_RAN", "w"))
                fclose(marker);
            sleep(1);
        }
    }
    return 0;
}
