// Fixture: several kinds of diagnostic in one log: an overload error with
// continuation lines and note #3326-D entries, a UTF-8 string before the error column,
// warnings 177-D, 550-D and 186-D, and a host function.
__device__ void f(int);
__device__ void f(double *);
int host_only(int x) { return x * 2; }
__global__ void k(unsigned *p, unsigned n)
{
    f("str");
    const char *s = "héllo wörld"; int q = undefinedAfterUtf8;
    int setOnly; setOnly = 3;
    if (n >= 0u) p[0] = 1;
}
