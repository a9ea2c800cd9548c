// Push constants of deblock_dct.comp, one dispatch per plane group (a plane,
// or an interleaved NV12/NV21 chroma pair). This text is the member list of
// both the GLSL push_constant block and the C++ struct DeblockDctPush
// (kernels/backends/gpu/deblock_dct_vk.cc): 32-bit ints only, so both sides
// lay it out as consecutive 4-byte words.
int src_offset;  // bytes from the source buffer's start to sample (0, 0)
int src_stride;  // bytes between source rows
int dst_offset;  // the same in the destination, both multiples of 4
int dst_stride;
int width;      // samples per channel
int height;     // rows of the plane (what the borders mirror about)
int rows;       // output rows [0, rows) are written, rows <= height
int src_rows;   // source rows [0, src_rows) may be read (a staged band)
int threshold;  // dct_threshold() of the plane's qp: 4..224
int shifts;     // 1, 2, 4, ..., 64
