// Fixture: a missing closing brace, reported "At end of source".
__global__ void k(int *p)
{
    p[0] = 1;
