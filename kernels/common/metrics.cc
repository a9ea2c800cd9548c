#include "daedalus/metrics.h"

#include <cmath>
#include <limits>

namespace daedalus {

uint64_t sum_squared_error(const ConstPlane& a, const ConstPlane& b) {
  uint64_t sse = 0;
  for (int y = 0; y < a.height; y++)
    for (int x = 0; x < a.width; x++) {
      const int d = int(a.at(x, y)) - int(b.at(x, y));
      sse += uint64_t(d * d);
    }
  return sse;
}

double psnr_from_sse(uint64_t sse, uint64_t samples) {
  if (sse == 0) return std::numeric_limits<double>::infinity();
  const double mse = double(sse) / double(samples);
  return 10.0 * std::log10(255.0 * 255.0 / mse);
}

double plane_psnr(const ConstPlane& a, const ConstPlane& b) {
  return psnr_from_sse(sum_squared_error(a, b),
                       uint64_t(a.width) * uint64_t(a.height));
}

double frame_psnr(const ConstFrame& a, const ConstFrame& b) {
  uint64_t sse = 0, samples = 0;
  for (int p = 0; p < a.num_planes; p++) {
    sse += sum_squared_error(a.planes[p], b.planes[p]);
    samples += uint64_t(a.planes[p].width) * uint64_t(a.planes[p].height);
  }
  return psnr_from_sse(sse, samples);
}

}  // namespace daedalus
