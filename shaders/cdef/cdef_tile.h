// The tile of cdef.comp, shared by the shader (workgroup and shared memory
// sizes) and kernels/backends/gpu/cdef_vk.cc (dispatch size, budget checks).
// Plain macros: valid GLSL and C++. Sizes are powers of two so that the shader
// splits indices with shifts (V3D has no integer divider).
//
// 16 luma blocks side by side: a warp of 32 invocations writes a whole
// 128-byte luma row, and 4:2:0 chroma rows are 64 bytes. Narrower rows made
// writes to host memory (staged frames) twice as slow on an H100.
#define CDEF_BLOCKS_X_LOG2 4
#define CDEF_BLOCKS_Y_LOG2 0
#define CDEF_BLOCKS (1 << (CDEF_BLOCKS_X_LOG2 + CDEF_BLOCKS_Y_LOG2))
#define CDEF_TILE_W_LOG2 (CDEF_BLOCKS_X_LOG2 + 3)  // luma samples
#define CDEF_TILE_H_LOG2 (CDEF_BLOCKS_Y_LOG2 + 3)
#define CDEF_TILE_W (1 << CDEF_TILE_W_LOG2)
#define CDEF_TILE_H (1 << CDEF_TILE_H_LOG2)
#define CDEF_WORDS_LOG2 (CDEF_TILE_W_LOG2 - 2)  // luma words per tile row
// One invocation per luma word, 16 per block; the shader uses the flat
// invocation index.
#define CDEF_LOCAL_X 16
#define CDEF_LOCAL_Y 16
#define CDEF_INVOCATIONS (CDEF_LOCAL_X * CDEF_LOCAL_Y)
// Staged planes: the tile and the 2-sample reach of the taps around it
// (AV1's offset table moves at most 2 rows and 2 columns).
#define CDEF_HALO 2
#define CDEF_PITCH (CDEF_TILE_W + 2 * CDEF_HALO)
#define CDEF_ROWS (CDEF_TILE_H + 2 * CDEF_HALO)
#define CDEF_LUMA_INTS (CDEF_PITCH * CDEF_ROWS)
// Chroma staged at once: two 4:2:2 planes (the largest pair), or one 4:4:4
// plane at a time.
#define CDEF_CHROMA_INTS (2 * (CDEF_TILE_W / 2 + 2 * CDEF_HALO) * CDEF_ROWS)
