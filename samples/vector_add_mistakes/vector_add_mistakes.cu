// vector_add_mistakes: the vector_add sample with deliberate mistakes, to see what the compiler
// says about each one. Fix them one by one and watch the Problems panel empty.

// Mistake 1: a plain C++ function is a host function, and kernels cannot call host code.
// nvcc reports the call once the mistakes it stops at first are fixed (NVRTC, which compiles
// device code only, rejects the function itself); mark it __device__.
float twice(float x)
{
    return 2.0f * x;
}

// Mistake 2: this template compiles until it is instantiated with a type that has no
// .value member; the error then points here, with a note on the line that instantiated it.
template <typename T>
__device__ float valueOf(const T &item)
{
    return item.value;
}

extern "C" __global__ void vector_add(const float *__restrict__ a, const float *__restrict__ b,
                                      float *__restrict__ c, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    // Mistake 3: declared and never used, a warning (#177-D) rather than an error.
    int unused = 42;
    if (i < count) // Mistake 4: there is no "count" here; the parameter is called n.
        c[i] = a[i] + twice(b[i]) + valueOf(a[i]);
}
