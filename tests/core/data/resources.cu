// Fixture: kernels with different resources: one extern "C", one that spills under
// --maxrregcount=32, a template with shared memory and a barrier, an empty one, and one
// with a large stack frame.
extern "C" __global__ void vector_add(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void heavy(const float *in, float *out, int n)
{
    float acc[64];
#pragma unroll
    for (int j = 0; j < 64; ++j)
        acc[j] = in[threadIdx.x + j * n];
    float s = 0.0f;
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
        for (int j = 0; j < 64; ++j)
            s += acc[j] * acc[(j * 7 + r) % 64];
    out[threadIdx.x] = s;
}

template <typename T>
__global__ void withShared(T *p)
{
    __shared__ T tile[256];
    tile[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = tile[255 - threadIdx.x];
}
template __global__ void withShared<double>(double *);

__global__ void empty() {}

__global__ void stacky(int *p, int n)
{
    int local[100];
    for (int i = 0; i < 100; ++i) local[i] = p[i];
    p[0] = local[n];
}
