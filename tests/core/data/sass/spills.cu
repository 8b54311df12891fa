// Test kernels for the SASS listing (tst_sasslisting). Compiled with --maxrregcount 24, so
// that `spills` keeps more values alive across its loop than it has registers for and ptxas
// spills some of them; `table` is a local array indexed at run time (loads and stores of local
// memory that are not spills). `lengths` has device
// functions inlined two deep, predicated code, a __noinline__ helper and sqrtf's slow path.

__device__ __forceinline__ float square(float v)
{
    return v * v;
}

__device__ __forceinline__ float norm2(float a, float b)
{
    return square(a) + square(b);
}

__device__ __noinline__ float clampUnit(float v)
{
    return fminf(fmaxf(v, 0.0f), 1.0f);
}

extern "C" __global__ void lengths(const float *a, const float *b, float *out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = clampUnit(sqrtf(norm2(a[i], b[i])));
}

extern "C" __global__ void spills(const float4 *in, float *out, const int *index, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 a = in[i], b = in[i + 1], c = in[i + 2], d = in[i + 3], e = in[i + 4];
    float table[16];
    for (int k = 0; k < 16; ++k)
        table[k] = in[i + k].x;
    float acc = 0.0f;
#pragma unroll 1
    for (int k = 0; k < n; ++k) {
        acc = acc * a.y + b.x * c.w - d.z * a.z + b.w * c.y + e.x * e.w + table[index[k] & 15];
        table[k & 15] = acc;
    }
    out[i] = acc + a.w + b.z + c.x + d.x + d.y + e.y + e.z + b.y + c.z + d.w;
}
