// Push constants of deblock_vp9.comp, one dispatch per pass and plane group
// (a plane, or an interleaved NV12/NV21 chroma pair). This text is the member
// list of both the GLSL push_constant block and the C++ struct
// DeblockVp9Push (kernels/backends/gpu/deblock_vk.cc): 32-bit ints only, so
// both sides lay it out as consecutive 4-byte words.
int src_offset;  // bytes from the source buffer's start to sample (0, 0)
int src_stride;  // bytes between source rows
int dst_offset;  // the same in the destination; all four multiples of 4
int dst_stride;
int width;    // samples per channel
int height;   // rows
int limit;    // vp9_thresholds(): 1..63
int blimit;   // 5..193
int thresh;   // 0..3
int items_x;  // the grid of items, see deblock_vp9.comp
int items_y;
