// Fixture: inline PTX that ptxas rejects; the front end accepts it.
__global__ void k(int *p)
{
    asm volatile("bogus.instr.u32 %0, 1;" : "=r"(p[0]));
}
