// Fixture header: templates whose instantiation fails in template_notes.cu.
template <typename T>
__device__ T twiceH(T v)
{
    return v.twice();
}
template <typename T, typename U>
__device__ T viaHeader(T v, U u)
{
    return twiceH(v) + u;
}
