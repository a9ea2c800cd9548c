// The SIMD rungs of the init ladders (built when Highway is available). Each
// overrides the entries of a DSP table with the implementation for the best
// target in hwy::SupportedTargets(), which tests may restrict to one target.
// `islands`: whether a target may take its intrinsic islands (CDEF's byte
// filters, MC's dot products, mode=dct's VNNI rows) where the CPU has their
// instructions; without, the Highway code a CPU lacking them runs.
#pragma once

#include <hwy/targets.h>

namespace daedalus {

// Declared, not included: a header all families share includes none of
// theirs (tools/check-layers.py); each caller includes its own family's.
struct CdefDsp;
struct DamageDsp;
struct DeblockDsp;
struct McDsp;

void deblock_dsp_init_simd(DeblockDsp* dsp);
void deblock_dct_dsp_init_simd(DeblockDsp* dsp,
                               bool islands);  // mode=dct's entry
void cdef_dsp_init_simd(CdefDsp* dsp, bool islands);
void mc_dsp_init_simd(McDsp* dsp, bool islands);
void damage_dsp_init_simd(DamageDsp* dsp);        // the step profiles
void damage_probe_dsp_init_simd(DamageDsp* dsp);  // the quantiser probe

// The entry of a HWY_EXPORT table for the currently allowed best target.
template <class Fn>
Fn simd_dispatch(Fn const* table) {
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  return table[hwy::GetChosenTarget().GetIndex()];
}

}  // namespace daedalus
