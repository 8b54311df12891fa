// reduction: each block sums blockDim.x elements of `in` (one per thread) and writes the sum
// to partial[blockIdx.x]. Three ways of doing the same tree reduction in shared memory:
//
// - interleaved: at step s, thread t adds in element t + s when t is a multiple of 2s. The
//   active threads are scattered over every warp, so every warp diverges at every step.
// - sequential: at step s, threads 0..s-1 add element t + s. The active threads are packed
//   into the first warps; the other warps skip the step as a whole.
// - shuffle: each warp sums its 32 values in registers with __shfl_down_sync, the warps'
//   sums meet in shared memory, and the first warp sums those.
//
// blockDim.x must be a power of two from 64 to 1024; the dynamic shared memory holds one
// unsigned long long per thread (blockDim.x * 8 bytes). The sums are integers, so the result
// is exact and can be compared without a tolerance.

extern "C" __global__ void reduce_interleaved(const unsigned int *__restrict__ in,
                                              unsigned long long *__restrict__ partial,
                                              unsigned long long n)
{
    extern __shared__ unsigned long long sdata[];
    const unsigned int t = threadIdx.x;
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + t;
    sdata[t] = i < n ? in[i] : 0ull;
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        if (t % (2 * s) == 0)
            sdata[t] += sdata[t + s];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = sdata[0];
}

extern "C" __global__ void reduce_sequential(const unsigned int *__restrict__ in,
                                             unsigned long long *__restrict__ partial,
                                             unsigned long long n)
{
    extern __shared__ unsigned long long sdata[];
    const unsigned int t = threadIdx.x;
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + t;
    sdata[t] = i < n ? in[i] : 0ull;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s)
            sdata[t] += sdata[t + s];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = sdata[0];
}

__device__ __forceinline__ unsigned long long warpSum(unsigned long long v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

extern "C" __global__ void reduce_shuffle(const unsigned int *__restrict__ in,
                                          unsigned long long *__restrict__ partial,
                                          unsigned long long n)
{
    extern __shared__ unsigned long long sdata[]; // one slot per warp is used
    const unsigned int t = threadIdx.x;
    const unsigned int lane = t % 32;
    const unsigned int warp = t / 32;
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + t;
    unsigned long long v = warpSum(i < n ? in[i] : 0ull);
    if (lane == 0)
        sdata[warp] = v;
    __syncthreads();
    if (warp == 0) {
        const unsigned int warps = blockDim.x / 32;
        v = lane < warps ? sdata[lane] : 0ull;
        v = warpSum(v);
        if (lane == 0)
            partial[blockIdx.x] = v;
    }
}

// The finishing pass of a two-pass reduction (reduction_two_pass.cuwb): one block sums the
// `count` partial sums the first pass wrote, each thread a strided share, then the warps'
// sums meet in shared memory as in reduce_shuffle. Launched as the project's second kernel,
// on the first kernel's `partial` buffer.
extern "C" __global__ void sum_partials(const unsigned long long *__restrict__ partial,
                                        unsigned long long *__restrict__ total,
                                        unsigned long long count)
{
    __shared__ unsigned long long warpSums[32];
    const unsigned int t = threadIdx.x;
    unsigned long long v = 0ull;
    for (unsigned long long i = t; i < count; i += blockDim.x)
        v += partial[i];
    v = warpSum(v);
    if (t % 32 == 0)
        warpSums[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = t < blockDim.x / 32 ? warpSums[t] : 0ull;
        v = warpSum(v);
        if (t == 0)
            total[0] = v;
    }
}
