// A whole program as CUDA is usually published: host headers, cuBLAS, glibc's uint, math.h's
// constants, kernels and a main() that allocates, launches and prints. Written for the tests.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cublas_v2.h>

#define CHECK(call) checkCuda((call), __FILE__, __LINE__)

void checkCuda(cudaError_t status, const char *file, int line)
{
    if (status != cudaSuccess) {
        std::fprintf(stderr, "%s:%d: %s\n", file, line, cudaGetErrorString(status));
        std::exit(1);
    }
}

__global__ void wave(float *out, uint n)
{
    const uint i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = sinf(float(M_PI) * i / n) + (i == 0 ? 0.0f : 1.0f / INFINITY);
}

template <typename T>
__global__ void scale(T *data, T factor, uint n)
{
    const uint i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= factor;
}

int main()
{
    const uint n = 1 << 20;
    float *d = nullptr;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    wave<<<(n + 255) / 256, 256>>>(d, n);
    scale<float><<<(n + 255) / 256, 256>>>(d, 2.0f, n);
    cublasHandle_t handle;
    cublasCreate(&handle);
    float sum = 0.0f;
    cublasSasum(handle, int(n), d, 1, &sum);
    std::vector<float> host(n);
    CHECK(cudaMemcpy(host.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    std::printf("sum %f, max %f\n", sum, *std::max_element(host.begin(), host.end()));
    cublasDestroy(handle);
    cudaFree(d);
}
