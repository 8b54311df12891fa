namespace demo {
__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}
__global__ void scale(double *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0;
}
} // namespace demo
template <typename T, int F> __global__ void mul(T *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= F;
}
__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * block_size_x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i] * TILE;
}
