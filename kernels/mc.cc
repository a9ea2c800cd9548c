// PLACEHOLDER until the mc helper writes this file.
#include "daedalus/mc.h"
namespace daedalus {
bool mc_params_valid(const McParams&) { return true; }
bool mc_is_noop(const McParams&) { return false; }
void mc_dsp_init_ref(McDsp*) {}
void mc_frame(const McDsp&, const Frame&, const ConstFrame&, const McParams&) {}
}
