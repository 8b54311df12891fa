// strided: out[i] = in[(i * stride) % n], one float per thread. With stride 1 the 32 threads
// of a warp read 32 neighbouring floats: one 128-byte line. With stride s they read floats s
// apart, so a warp touches min(32, s) lines and most of every line fetched is thrown away.
// The writes stay coalesced, so only the read side loses bandwidth. n must be a power of two
// for the modulo to be cheap and for every element to be read once when the stride is odd;
// for even strides some elements are read several times and others never, which is fine for
// a bandwidth experiment.

extern "C" __global__ void strided(const float *__restrict__ in, float *__restrict__ out,
                                   unsigned long long n, unsigned long long stride)
{
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(i * stride) & (n - 1)];
}
