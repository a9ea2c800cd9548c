// The damage estimator's quantiser probe (docs/spec.md, "Quantiser probe"):
// counts of small DCT coefficients on the found block grid and halfway
// between, and the dead zone's width they show.
#include <algorithm>

#include "daedalus/damage.h"

namespace daedalus {
namespace {

// One set of blocks (grid lines at ox, oy mod 8) through `probe`, a batch
// of blocks at a time.
void count_set(const DamageDsp& dsp, const ConstPlane& luma, int ox, int oy,
               int frame, int period, ZeroCounts* out) {
  constexpr int kBatch = 256;
  ProbeBlock batch[kBatch];
  int n = 0;
  const auto flush = [&] {
    dsp.probe(luma, batch, n, out->below);
    out->total += 63 * uint32_t(n);
    n = 0;
  };
  for (int j = 0; oy + 8 * j + 8 <= luma.height; j++) {
    // The first i of this row with (i + j + frame) % period == 0.
    const int first = (period - (j + frame) % period) % period;
    for (int i = first; ox + 8 * i + 8 <= luma.width; i += period) {
      batch[n++] = {ox + 8 * i, oy + 8 * j};
      if (n == kBatch) flush();
    }
  }
  if (n > 0) flush();
}

}  // namespace

int probe_period(int width, int height) {
  const int64_t blocks = int64_t(width / 8) * (height / 8);
  int period = 1;
  while (blocks > int64_t(kProbeBlocks) * period) period *= 2;
  return period;
}

void probe_zeros(const DamageDsp& dsp, const ConstPlane& luma, int origin_x,
                 int origin_y, int halfway, int frame, ProbeCounts* counts) {
  const int period = probe_period(luma.width, luma.height);
  count_set(dsp, luma, origin_x, origin_y, frame, period, &counts->on);
  count_set(dsp, luma, (origin_x + halfway) % 8, (origin_y + halfway) % 8,
            frame, period, &counts->off);
}

int log2_16(uint32_t x) {
  int e = 0;
  while ((x >> e) > 1) e++;
  return 16 * e + int((uint64_t(x) << 4) >> e) - 16;
}

QuantiserEstimate estimate_quantiser(const ProbeCounts& counts, int act) {
  QuantiserEstimate q;
  if (counts.on.total == 0 || counts.off.total == 0) return q;
  // D(k): the share under threshold k on the grid less that off it.
  int d[kProbeBins];
  for (int k = 0; k < kProbeBins; k++) {
    d[k] = int(int64_t(counts.on.below[k]) * 65536 / counts.on.total) -
           int(int64_t(counts.off.below[k]) * 65536 / counts.off.total);
    q.zero_excess = std::max(q.zero_excess, d[k]);
  }
  if (q.zero_excess == 0) return q;
  for (int k = kProbeBins - 1; k >= 0; k--) {
    if (4 * d[k] >= q.zero_excess) {
      q.dead_zone_qp = kProbeFirstQp + k;
      break;
    }
  }
  // 3 qp less per doubling of the mean step above 2 samples (log2_16 144):
  // positive for every act a plane can have (at most 2 * 32 * 256,
  // log2_16 224).
  if (act > 0)
    q.measure = 16 * q.dead_zone_qp -
                3 * std::max(0, log2_16(uint32_t(act)) - kProbeTextureFrom);
  return q;
}

}  // namespace daedalus
