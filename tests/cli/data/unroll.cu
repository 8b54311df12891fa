// A loop whose unrolling Kernel Tuner tunes with loop_unroll_factor_0 (0: the compiler's choice)
__global__ void sum_columns(const float *in, float *out, int rows)
{
    float s = 0.0f;
#pragma unroll loop_unroll_factor_0
    for (int r = 0; r < rows; ++r)
        s += in[r * blockDim.x + threadIdx.x];
#ifdef kernel_tuner
    out[threadIdx.x] = s;
#else
    out[threadIdx.x] = -1.0f; // only a build without the tuner's defines gets here
#endif
}
