// Two errors at known places: line 5 column 14 and line 6 column 5.
extern "C" __global__ void broken(float *out)
{
    int i = threadIdx.x;
    out[i] = undeclared_value;
    not_a_function(out);
}
