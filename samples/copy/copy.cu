// copy: out[i] = in[i], one float per thread. The kernel does no arithmetic, so its time is
// all memory traffic: the classroom experiment is to sweep the block size and watch the
// bandwidth (bytes read + bytes written over the time) rise and fall. 64-bit indices keep
// it correct for buffers of more than 2^31 elements.

extern "C" __global__ void copy(const float *__restrict__ in, float *__restrict__ out,
                                unsigned long long n)
{
    const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
