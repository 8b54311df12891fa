// A template kernel, instantiated with --name-expression.
template<typename T>
__global__ void twice(T *data)
{
    data[threadIdx.x] *= T(2);
}
