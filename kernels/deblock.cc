// PLACEHOLDER until the deblock helper writes this file.
#include "daedalus/deblock.h"
namespace daedalus {
bool deblock_params_valid(const DeblockParams&) { return true; }
void deblock_dsp_init_ref(DeblockDsp*) {}
void deblock_frame(const DeblockDsp&, const Frame&, const DeblockParams&) {}
bool deblock_is_noop(const DeblockParams&, bool) { return false; }
}
