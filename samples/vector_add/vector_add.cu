// vector_add: c[i] = a[i] + b[i], the classic first kernel (as in PyCUDA's introduction).
// One thread per element; the grid is rounded up to whole blocks, so the threads past the
// end of the arrays must do nothing: that is what the bounds check is for.
// __restrict__ promises the compiler that the arrays do not overlap, so it may load a and b
// through the read-only cache.

extern "C" __global__ void vector_add(const float *__restrict__ a, const float *__restrict__ b,
                                      float *__restrict__ c, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
