// One warning (an unused variable) and no errors: cuwb still exits 0.
extern "C" __global__ void unusedVariable(float *out)
{
    int unused;
    out[threadIdx.x] = 1.0f;
}
