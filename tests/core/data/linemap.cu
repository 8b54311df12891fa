// Fixture for the PTX line map: a helper that is inlined (its .loc lines carry inlined_at),
// one that is not, and a kernel whose statements each generate code.
__device__ __noinline__ float scaleBy(float x, float factor)
{
    return x * factor;
}

__device__ float addOne(float x)
{
    return x + 1.0f;
}

extern "C" __global__ void linemap(float *out, const float *in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float scaled = scaleBy(in[i], 3.0f);
    out[i] = addOne(scaled);
}
