// Push constants of cdef.comp: one dispatch filters the luma plane and the
// chroma planes that share its buffers. This text is the member list of both
// the GLSL push_constant block and the C++ struct CdefPush
// (kernels/backends/gpu/cdef_vk.cc): 32-bit ints only, laid out as consecutive
// words.
int luma_src_offset;  // bytes from binding 0's start to luma sample (0, 0)
int luma_src_stride;  // bytes between rows
int luma_dst_offset;  // bytes from binding 1's start; a multiple of 4
int luma_dst_stride;  // a multiple of 4
int width;            // luma samples, >= 1
int height;
int luma_out;       // 1: write luma; 0: luma only feeds the direction search
int chroma_groups;  // chroma groups written: 0, 1 or 2 (an interleaved
                    // U/V pair is one group of step 2, see C_STEP)
int chroma_width;   // samples per channel
int chroma_height;
int c0_src_offset;  // chroma group 0 in bindings 2 (src) and 3 (dst); with
int c0_src_stride;  // step 2, sample (0, 0) of the lower-addressed channel
int c0_dst_offset;
int c0_dst_stride;
int c1_src_offset;  // chroma group 1, same bindings
int c1_src_stride;
int c1_dst_offset;
int c1_dst_stride;
int pri_strength;  // CdefParams, sec already mapped 3 -> 4
int sec_strength;
int uv_pri_strength;
int uv_sec_strength;
int damping;
