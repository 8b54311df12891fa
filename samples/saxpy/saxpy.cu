// saxpy: y = a * x + y, "single-precision a times x plus y" from BLAS. y is read and written
// by the same thread, so it is an in-out buffer: its initial contents matter, and the
// verification compares against an expression over the initial y, not the result.
// One thread per element with a bounds check, as in vector_add.

extern "C" __global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
