// Fixture: compiled with --optimization-info=inline, NVVM reports its inlining decisions as
// remarks with a file:line:column location.
__device__ __noinline__ float f(float x) { return x * 2.0f; }
__device__ float g(float x) { return x + 1.0f; }
__global__ void k(float *p)
{
    p[0] = f(p[1]) + g(p[2]);
}
