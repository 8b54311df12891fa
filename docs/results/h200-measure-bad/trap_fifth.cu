// Counts its launches in counter[0] and traps on the launch that finds `trapAt` there: with one
// warm-up launch, trapAt = 5 faults at the fifth timed sample.
extern "C" __global__ void trapLater(unsigned *counter, unsigned trapAt)
{
    if (atomicAdd(counter, 1u) == trapAt) {
        __trap();
    }
}
