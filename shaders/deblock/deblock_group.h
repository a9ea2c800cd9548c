// The workgroup of deblock.comp, shared by the shader and
// kernels/backends/gpu/deblock_vk.cc (which sizes dispatches from it). Plain
// macros: valid GLSL and C++.
#define DEBLOCK_LOCAL_X 16
#define DEBLOCK_LOCAL_Y 4
#define DEBLOCK_INVOCATIONS (DEBLOCK_LOCAL_X * DEBLOCK_LOCAL_Y)
