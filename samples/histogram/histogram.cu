// histogram: count how often each byte value 0..255 occurs, two ways. Both kernels walk the
// input with a grid-stride loop over a fixed grid, so a block sees many elements.
// histogram_global adds every byte straight into the 256 global bins: every thread of every
// block competes for the same 256 counters in L2. histogram_shared gives each block a private
// copy of the bins in shared memory, counts there (cheap, contended only inside the block),
// then merges its 256 counts into the global bins with one atomic per non-empty bin.
// The bins accumulate, so they must start at zero.

#define BINS 256

extern "C" __global__ void histogram_global(const unsigned char *__restrict__ data,
                                            unsigned int *__restrict__ bins, unsigned long long n)
{
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += stride)
        atomicAdd(&bins[data[i]], 1u);
}

extern "C" __global__ void histogram_shared(const unsigned char *__restrict__ data,
                                            unsigned int *__restrict__ bins, unsigned long long n)
{
    __shared__ unsigned int local[BINS];
    for (int k = threadIdx.x; k < BINS; k += blockDim.x)
        local[k] = 0;
    __syncthreads();
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
         i += stride)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int k = threadIdx.x; k < BINS; k += blockDim.x)
        if (local[k] != 0)
            atomicAdd(&bins[k], local[k]);
}
