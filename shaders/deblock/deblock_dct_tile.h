// The tile of deblock_dct.comp, shared by the shader (workgroup and shared
// memory sizes) and kernels/backends/gpu/deblock_dct_vk.cc (dispatch size,
// budget checks). Plain macros: valid GLSL and C++.
//
// A workgroup owns a DCT_TILE x DCT_TILE square of output samples (of each
// channel of an interleaved pair). The blocks of one shift that meet it are
// at most DCT_SLOTS_SIDE a side (a grid offset other than 0 puts a partial
// block at each end); each is worked by 8 invocations, one per column, then
// one per row. Blocks reach 7 samples beyond the tile: the staged square
// has a halo of DCT_HALO on every side; it holds DCT_STAGED_BYTES of
// values: two channels of 8-bit ones, or one of 10-bit ones (16 bits each).
#define DCT_TILE_LOG2 5
#define DCT_TILE (1 << DCT_TILE_LOG2)
#define DCT_HALO 8
#define DCT_SPAN (DCT_TILE + 2 * DCT_HALO)
#define DCT_STAGED_BYTES (2 * DCT_SPAN * DCT_SPAN)
#define DCT_SLOTS_SIDE (DCT_TILE / 8 + 1)
#define DCT_SLOTS (DCT_SLOTS_SIDE * DCT_SLOTS_SIDE)
#define DCT_LOCAL_X 16
#define DCT_LOCAL_Y 16
#define DCT_INVOCATIONS (DCT_LOCAL_X * DCT_LOCAL_Y)
// Shared memory in 32-bit words: the staged values, the per-sample sums, and
// per block slot two buffers of 32 words (64 16-bit values) and the 8 words
// of the row pass's top bits (10 bits): 3976 words, 15904 bytes.
#define DCT_SHARED_WORDS                                             \
  (DCT_STAGED_BYTES / 4 + DCT_TILE * DCT_TILE + 2 * DCT_SLOTS * 32 + \
   DCT_SLOTS * 8)
