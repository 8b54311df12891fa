// Fixture: two errors on lines indented with tabs (and a tab inside a line) and an unused
// variable warning; the caret columns must come out as byte columns of the original line.
extern "C" __global__ void k(float *a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
    int unused = 3;
	if (i < n) a[i] = foo + 1;
        a[0] = 	bar;
}
