// The source behind docs/images/workbench-diagnostics.png: a kernel with one warning left
// in (an unused variable), so the screenshot shows an inline diagnostic while the PTX view
// and the Kernels panel still have a module to show.
#include <cuda_fp16.h>

template <int TILE>
__global__ void block_sum(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float partial[TILE];
    const int i = blockIdx.x * TILE + threadIdx.x;
    int unused = 42;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int stride = TILE / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial[0];
}

template __global__ void block_sum<256>(const float *, float *, int);

extern "C" __global__ void scale_half(__half *data, float factor, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = __float2half(__half2float(data[i]) * factor);
}
