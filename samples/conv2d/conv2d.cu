// conv2d: a 3 × 3 convolution of a width × height image of floats with a fixed filter (the
// binomial blur 1 2 1 / 2 4 2 / 1 2 1, divided by 16) held in constant memory. One output
// pixel per thread on a 2-D grid of 2-D blocks; pixels outside the image are replaced by the
// nearest edge pixel (clamped borders). Every thread of a warp reads the same filter weight at
// the same time, which is what constant memory serves best: one read, broadcast to the warp.
// The image reads go through the L1 cache, where neighbouring threads share most of their
// nine inputs; the block shape decides how many rows and columns a block's reads span.

__constant__ float filter[9] = {0.0625f, 0.125f,  0.0625f, 0.125f, 0.25f,
                                0.125f,  0.0625f, 0.125f,  0.0625f};

extern "C" __global__ void conv2d(const float *__restrict__ in, float *__restrict__ out, int width,
                                  int height)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col >= width || row >= height)
        return;
    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy) {
        const int r = min(max(row + dy, 0), height - 1);
        for (int dx = -1; dx <= 1; ++dx) {
            const int c = min(max(col + dx, 0), width - 1);
            sum += filter[(dy + 1) * 3 + dx + 1] * in[(long long)r * width + c];
        }
    }
    out[(long long)row * width + col] = sum;
}
