// transpose: out = inᵀ for a ROWS × COLS matrix of floats, three ways. The naive kernel reads
// rows (coalesced) but writes columns (each warp's 32 stores land in 32 different rows); the
// shared-memory kernel stages a TILE × TILE tile so that both the read and the write are
// coalesced; the padded kernel adds one column to the tile so that a warp reading a tile
// column hits 32 different banks instead of one.

#ifndef TILE
#define TILE 32
#endif
#define ROWS_PER_PASS 8

// One element per thread; any block shape: the block-shape experiment.
extern "C" __global__ void transpose_naive(const float *__restrict__ in, float *__restrict__ out,
                                           int rows, int cols)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x; // column of in
    const int y = blockIdx.y * blockDim.y + threadIdx.y; // row of in
    if (x < cols && y < rows)
        out[(long long)x * rows + y] = in[(long long)y * cols + x];
}

// Block TILE × ROWS_PER_PASS; each thread moves TILE / ROWS_PER_PASS elements.
extern "C" __global__ void transpose_shared(const float *__restrict__ in, float *__restrict__ out,
                                            int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(long long)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x; // column of out = row of in
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS)
        if (x < rows && y + j < cols)
            out[(long long)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

// The same with one column of padding: tile[threadIdx.x][...] now walks 33-float rows, so
// the 32 threads of a warp read 32 different banks.
extern "C" __global__ void transpose_padded(const float *__restrict__ in, float *__restrict__ out,
                                            int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(long long)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS_PER_PASS)
        if (x < rows && y + j < cols)
            out[(long long)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
