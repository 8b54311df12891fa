// scan: inclusive prefix sum inside each block (Hillis–Steele). Each block loads blockDim.x
// elements into dynamic shared memory (blockDim.x ints, sized at launch), then takes log2(B)
// steps: at step d every element adds the one d places to its left, d = 1, 2, 4, ...
// Reading and writing the same array is safe because every step reads first, synchronises,
// then writes. This is a per-block scan: out[i] sums in[] from the start of i's block, not
// from the start of the array; a full scan needs a second pass over the block sums.
// Hillis–Steele does B log2(B) additions where a sequential scan does B: it trades work for
// fewer steps.

extern "C" __global__ void scan_block(const int *__restrict__ in, int *__restrict__ out, int n)
{
    extern __shared__ int s[];
    const int t = threadIdx.x;
    const long long i = blockIdx.x * (long long)blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int d = 1; d < blockDim.x; d <<= 1) {
        const int left = t >= d ? s[t - d] : 0;
        __syncthreads();
        s[t] += left;
        __syncthreads();
    }
    if (i < n)
        out[i] = s[t];
}
