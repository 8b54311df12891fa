// Fixture: the host C++ library is not available under NVRTC.
#include <cstdlib>
__global__ void k(int *p) { p[0] = 1; }
