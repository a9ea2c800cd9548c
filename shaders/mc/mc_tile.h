// The tile of mc.comp, shared by the shader (which sizes its workgroup and
// shared memory from it) and kernels/backends/gpu/mc_vk.cc (which sizes
// dispatches and checks the budgets). Plain macros: valid GLSL and C++.
#define MC_LOCAL_X 16  // invocations per row; each writes 4 units
#define MC_LOCAL_Y 16
#define MC_TILE_W (MC_LOCAL_X * 4)  // units of a row one workgroup writes
#define MC_TILE_H MC_LOCAL_Y
// The largest staged source window: 8 taps on both axes, interleaved chroma.
#define MC_MAX_STEP 2
#define MC_MAX_IN_W (MC_TILE_W + 7 * MC_MAX_STEP)
#define MC_MAX_ROWS (MC_TILE_H + 7)
