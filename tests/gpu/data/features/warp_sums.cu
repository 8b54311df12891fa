// One sum per warp: every lane writes its shuffle-reduced partial and only lane 0's is the
// warp's whole sum, as in kernels whose output is only partly meaningful.
__global__ void warp_sums(const float *in, float *out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if (i < n)
        out[i] = v;
}
