// Auto strength (docs/spec.md, "Auto strength"): each element's settings
// for a damage estimate, from the table fitted on the quality corpus
// (docs/estimator.md). Clean input maps to settings that change nothing.
#pragma once

#include "daedalus/cdef.h"
#include "daedalus/damage.h"
#include "daedalus/deblock.h"

namespace daedalus {

// The estimate of the heaviest damage: what the elements are set for before
// their first frame (and what the backend choice times).
DamageEstimate strongest_damage();

// qp 0 (nothing filtered) at the levels that leave deblocking off; the grid
// where the estimate found it.
DeblockParams auto_deblock_params(const DamageEstimate& estimate);

// Every strength 0 at the levels that leave CDEF off.
CdefParams auto_cdef_params(const DamageEstimate& estimate);

}  // namespace daedalus
