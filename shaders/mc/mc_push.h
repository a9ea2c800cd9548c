// Push constants of mc.comp, one dispatch per plane (or interleaved chroma
// pair). This text is the member list of both the GLSL push_constant block
// and the C++ struct McPush (kernels/backends/gpu/mc_vk.cc): 32-bit ints only,
// so both sides lay it out as consecutive 4-byte words.
int src_offset;  // bytes from the source buffer's start to sample (0, 0)
int src_stride;  // bytes between source rows
int dst_offset;  // bytes to destination sample (0, 0); a multiple of 4
int dst_stride;  // bytes between destination rows; a multiple of 4
int width;       // samples per channel, >= 1
int height;      // rows, >= 1
int step;        // interleaved channels: 1, or 2 for NV12/NV21 chroma
int ix;          // integer part of the shift in samples (floor)
int iy;
int taps_x_lo;  // horizontal weights 0..3, one signed byte each (low first)
int taps_x_hi;  // weights 4..7
int taps_y_lo;  // vertical weights 0..3
int taps_y_hi;  // weights 4..7
int row_end;    // rows written: [0, row_end), <= height (a hybrid frame's
                // GPU band; the source is still the whole plane)
