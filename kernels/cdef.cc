// PLACEHOLDER until the cdef helper writes this file.
#include "daedalus/cdef.h"
namespace daedalus {
bool cdef_params_valid(const CdefParams&) { return true; }
bool cdef_is_noop(const CdefParams&) { return false; }
void cdef_dsp_init_ref(CdefDsp*) {}
void cdef_frame(const CdefDsp&, const Frame&, const ConstFrame&, const CdefParams&) {}
}
