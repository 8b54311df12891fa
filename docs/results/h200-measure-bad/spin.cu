// Spins one thread for `cycles` SM cycles: a kernel whose length is known in advance.
extern "C" __global__ void spin(long long cycles, unsigned long long *seen)
{
    const long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
    seen[0] = (unsigned long long)(clock64() - t0);
}
