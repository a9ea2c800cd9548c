// Each element's frame call as a FrameJob (backend_choice.h): what the
// elements run per frame, the backend trial times, and the benchmark runs.
#pragma once

#include "daedalus/backend_choice.h"

namespace daedalus {

// The cost keys name only what changes the work per frame: the filters and
// taps that run, not thresholds (deblock's qp only decides which edges the
// data lets through, CDEF's damping only the tap weights).
FrameJob deblock_job(const DeblockParams& params);
FrameJob cdef_job(const CdefParams& params);
FrameJob mc_job(const McParams& params);

}  // namespace daedalus
