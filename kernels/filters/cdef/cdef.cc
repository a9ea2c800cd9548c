#include "daedalus/cdef.h"
#include "daedalus/thread_pool.h"
#include "daedalus_config.h"
#if DAEDALUS_HAVE_SIMD
#include "filters/simd_init.h"
#endif

#include <algorithm>

namespace daedalus {

// AV1 spec 7.15.3, Cdef_Directions.
const int8_t kCdefDirections[8][2][2] = {
    {{-1, 1}, {-2, 2}}, {{0, 1}, {-1, 2}}, {{0, 1}, {0, 2}}, {{0, 1}, {1, 2}},
    {{1, 1}, {2, 2}},   {{1, 0}, {2, 1}},  {{1, 0}, {2, 0}}, {{1, 0}, {2, -1}},
};

// AV1 spec Cdef_Uv_Dir[1][0] (4:2:2: chroma is half as wide, so the angles of
// the luma directions change).
const uint8_t kCdefDir422[8] = {7, 0, 2, 4, 5, 6, 6, 6};

Status cdef_params_valid(const CdefParams& p) {
  return check_ranges("CDEF", {
                                  {"pri_strength", p.pri_strength, 0, 15},
                                  {"sec_strength", p.sec_strength, 0, 4},
                                  {"uv_pri_strength", p.uv_pri_strength, 0, 15},
                                  {"uv_sec_strength", p.uv_sec_strength, 0, 4},
                                  {"damping", p.damping, 3, 6},
                              });
}

bool cdef_is_noop(const CdefParams& p) {
  return p.pri_strength == 0 && p.sec_strength == 0 && p.uv_pri_strength == 0 &&
         p.uv_sec_strength == 0;
}

void cdef_frame(const CdefDsp& dsp, const Frame& dst, const ConstFrame& src,
                const CdefParams& params, ThreadPool* pool,
                int first_block_row) {
  run_bands(pool, cdef_block_rows(src) - first_block_row, 1,
            [&](int begin, int end) {
              cdef_filter_rows(dsp, dst, src, params, first_block_row + begin,
                               first_block_row + end);
            });
}

void cdef_dsp_init(CdefDsp* dsp, [[maybe_unused]] bool islands) {
  cdef_dsp_init_ref(dsp);
#if DAEDALUS_HAVE_SIMD
  cdef_dsp_init_simd(dsp, islands);
#endif
}

}  // namespace daedalus
