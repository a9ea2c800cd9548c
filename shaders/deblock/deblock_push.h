// Push constants of deblock.comp, one dispatch per pass and plane group (a
// plane, or an interleaved NV12/NV21 chroma pair). This text is the member
// list of both the GLSL push_constant block and the C++ struct DeblockPush
// (kernels/backends/gpu/deblock_vk.cc): 32-bit ints only, so both sides lay it
// out as consecutive 4-byte words.
int src_offset;  // bytes from the source buffer's start to sample (0, 0)
int src_stride;  // bytes between source rows
int dst_offset;  // the same in the destination; all four multiples of 4
int dst_stride;
int width;   // samples per channel
int height;  // rows
int alpha;   // deblock_plane_params(): both > 0
int beta;
int tc0;         // used when bs < 4
int bs;          // 1..4
int block_size;  // 4, 8 or 16: edge spacing in samples
int edges;       // runs: edges per row (pass 1) or column (pass 2)
int items_x;     // the grid of items, see deblock.comp
int items_y;
int items_x_log2;  // log2 of the items along x one workgroup covers
