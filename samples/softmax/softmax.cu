// softmax: y = exp(x - max(x)) / sum(exp(x - max(x))) for every row of a rows × cols matrix.
// One block per row. Each thread strides across the row, and the block combines its threads'
// partial results twice: a maximum (subtracting it keeps expf from overflowing) and a sum.
// A block-wide reduction is a warp shuffle reduction (__shfl_xor_sync: 32 values to 1 in five
// steps, no shared memory), one value per warp into shared memory, then a shuffle reduction of
// those. The block size must be a multiple of 32 (at most 1024: at most 32 warps).
// softmax_reference is the verification: the same result computed slowly but simply, one
// thread per row in double precision, launched with the same grid and block.

__device__ float warpMax(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}

__device__ float warpSum(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

// Every thread of the block returns the block's maximum (or sum) of v.
__device__ float blockMax(float v, float *partial)
{
    const int lane = threadIdx.x & 31;
    const int warps = (blockDim.x + 31) >> 5;
    v = warpMax(v);
    if (lane == 0)
        partial[threadIdx.x >> 5] = v;
    __syncthreads();
    v = warpMax(lane < warps ? partial[lane] : __int_as_float(0xff800000)); // -infinity
    __syncthreads(); // partial is reused by the next reduction
    return v;
}

__device__ float blockSum(float v, float *partial)
{
    const int lane = threadIdx.x & 31;
    const int warps = (blockDim.x + 31) >> 5;
    v = warpSum(v);
    if (lane == 0)
        partial[threadIdx.x >> 5] = v;
    __syncthreads();
    v = warpSum(lane < warps ? partial[lane] : 0.0f);
    __syncthreads();
    return v;
}

extern "C" __global__ void softmax_rows(const float *__restrict__ in, float *__restrict__ out,
                                        int rows, int cols)
{
    __shared__ float partial[32];
    const int row = blockIdx.x;
    if (row >= rows)
        return; // the whole block leaves together, so the barriers below stay safe
    const float *x = in + (long long)row * cols;
    float *y = out + (long long)row * cols;

    float m = __int_as_float(0xff800000);
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        m = fmaxf(m, x[c]);
    m = blockMax(m, partial);

    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        s += expf(x[c] - m);
    s = blockSum(s, partial);

    const float inverse = 1.0f / s;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        y[c] = expf(x[c] - m) * inverse;
}

// The reference: thread 0 of each block finds the row's maximum and sum in double precision,
// then the block writes the row.
extern "C" __global__ void softmax_reference(const float *__restrict__ in, float *__restrict__ out,
                                             int rows, int cols)
{
    __shared__ double rowMax;
    __shared__ double rowSum;
    const int row = blockIdx.x;
    if (row >= rows)
        return;
    const float *x = in + (long long)row * cols;
    float *y = out + (long long)row * cols;
    if (threadIdx.x == 0) {
        double m = x[0];
        for (int c = 1; c < cols; ++c)
            m = fmax(m, (double)x[c]);
        double s = 0.0;
        for (int c = 0; c < cols; ++c)
            s += exp((double)x[c] - m);
        rowMax = m;
        rowSum = s;
    }
    __syncthreads();
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        y[c] = (float)(exp((double)x[c] - rowMax) / rowSum);
}
