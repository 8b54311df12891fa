// matmul: C = A · B for N × N row-major floats, one element of C per thread, two ways.
//
// - naive: thread (row, col) walks a row of A and a column of B in global memory. Each
//   element of A and B is loaded N times over the whole grid, and the kernel is limited by
//   how fast the caches can feed those loads.
// - tiled: a TILE × TILE block stages one TILE × TILE tile of A and one of B in shared memory,
//   synchronises, and every thread does TILE multiply-adds from shared memory. Each element
//   loaded from global memory is used TILE times, so global traffic falls by a factor of TILE.
//
// The tiled kernel needs blockDim = (TILE, TILE); TILE comes from -DTILE (default 16).
// Both kernels add the products in the same order (k = 0, 1, ..., N-1), so their results
// differ only by how the compiler contracts the multiply-adds.

#ifndef TILE
#define TILE 16
#endif

extern "C" __global__ void matmul_naive(const float *__restrict__ A, const float *__restrict__ B,
                                        float *__restrict__ C, int n)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += A[(long long)row * n + k] * B[(long long)k * n + col];
    C[(long long)row * n + col] = sum;
}

extern "C" __global__ void matmul_tiled(const float *__restrict__ A, const float *__restrict__ B,
                                        float *__restrict__ C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t0 = 0; t0 < n; t0 += TILE) {
        As[ty][tx] = (row < n && t0 + tx < n) ? A[(long long)row * n + t0 + tx] : 0.0f;
        Bs[ty][tx] = (t0 + ty < n && col < n) ? B[(long long)(t0 + ty) * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[(long long)row * n + col] = sum;
}
