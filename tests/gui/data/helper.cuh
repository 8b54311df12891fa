// Included by the compile-controller test through an extra include folder.
#pragma once

__device__ inline float twice(float x)
{
    return 2.0f * x;
}
