// stencil1d: out[i] = in[i - RADIUS] + ... + in[i + RADIUS], with indices clamped to [0, n - 1]
// at the ends. Without shared memory every input element would be loaded 2 * RADIUS + 1 times
// by neighbouring threads; here each block loads its blockDim.x elements plus RADIUS on each
// side (the halo) into shared memory once, synchronises, and sums from shared memory.
// RADIUS comes from -DRADIUS (default 3); blocks of up to 1024 threads.

#ifndef RADIUS
#define RADIUS 3
#endif

extern "C" __global__ void stencil1d(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float s[1024 + 2 * RADIUS];
    const int first = blockIdx.x * blockDim.x - RADIUS; // global index of s[0]
    for (int j = threadIdx.x; j < blockDim.x + 2 * RADIUS; j += blockDim.x)
        s[j] = in[min(max(first + j, 0), n - 1)];
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float sum = 0.0f;
        for (int k = 0; k <= 2 * RADIUS; ++k)
            sum += s[threadIdx.x + k];
        out[i] = sum;
    }
}
