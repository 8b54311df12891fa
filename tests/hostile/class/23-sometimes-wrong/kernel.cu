// A kernel whose output is wrong on some launches, in a way nothing on the GPU remembers: when
// a launch begins in an odd millisecond of the GPU's clock, element 0 is not written. One
// verified launch says nothing about the others; only verifying the timed launches catches it.
__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        unsigned long long now;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        if ((now / 1000000ull) % 2 == 1)
            return;
    }
    if (i < n)
        c[i] = a[i] + b[i];
}
