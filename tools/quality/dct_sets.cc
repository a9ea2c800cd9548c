// mode=dct with any set of grid offsets, for measuring shift sets the
// element does not offer (docs/quality.md, "What a cheaper mode=dct would
// cost"): the spec's forward transform, thresholding, VP9 inverse, mirrored
// borders and rounded mean (docs/spec.md, "daedalusdeblock, mode=dct"),
// through the scalar transform pair the reference uses, on 8-bit I420.
//
//   dct-sets SOURCE.yuv DAMAGED.yuv WIDTH HEIGHT QP CHROMA_QP_OFFSET SET...
//
// SET is a list of offsets "sx,sy;sx,sy;..." (1, 2, 4, ... of them; the
// element's shifts=4 is "0,0;6,2;4,4;2,6"). Prints one JSON object: the
// damaged clip's PSNR-YUV against the source, each set's, and each set's
// squared error per plane (Y, U, V) over all frames. Each offset's
// reconstruction is made once per plane and shared by the sets that hold
// it.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "daedalus/dct8.h"
#include "daedalus/deblock.h"
#include "filters/deblock/deblock_dct_ref.h"

namespace {

using Offset = std::pair<int, int>;
using Set = std::vector<Offset>;

// Q of every sample of the w x h plane p from the blocks of the grid at
// offset o, threshold t (the reference's own per-shift reconstruction).
std::vector<int> reconstruct(const uint8_t* p, int w, int h, Offset o, int t) {
  daedalus::ConstPlane plane;
  plane.data = p;
  plane.stride = w;
  plane.width = w;
  plane.height = h;
  std::vector<int> q(size_t(w) * h, 0);
  daedalus::dct_add_shift_ref<uint8_t>(plane, o.first, o.second, t, 0, h,
                                       q.data());
  return q;
}

Set parse_set(const char* text) {
  Set s;
  for (const char* t = text; *t;) {
    int sx, sy, n;
    if (std::sscanf(t, "%d,%d%n", &sx, &sy, &n) != 2) break;
    s.push_back({sx, sy});
    t += n;
    if (*t == ';') t++;
  }
  return s;
}

double psnr(double sse, double samples) {
  return sse == 0 ? 100.0 : 10 * std::log10(255.0 * 255.0 * samples / sse);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 8) {
    std::fprintf(stderr,
                 "usage: dct-sets SOURCE.yuv DAMAGED.yuv WIDTH HEIGHT QP "
                 "CHROMA_QP_OFFSET \"sx,sy;...\"...\n");
    return 2;
  }
  const int width = std::atoi(argv[3]), height = std::atoi(argv[4]);
  const int qp = std::atoi(argv[5]), chroma_offset = std::atoi(argv[6]);
  std::vector<Set> sets;
  for (int a = 7; a < argc; a++) sets.push_back(parse_set(argv[a]));
  FILE* source = std::fopen(argv[1], "rb");
  FILE* damaged = std::fopen(argv[2], "rb");
  if (!source || !damaged) {
    std::fprintf(stderr, "dct-sets: cannot open the clips\n");
    return 1;
  }
  const size_t luma = size_t(width) * height, frame = luma * 3 / 2;
  std::vector<uint8_t> s(frame), d(frame);
  double sse_damaged = 0, samples = 0;
  std::vector<std::array<double, 3> > sse(sets.size());
  while (std::fread(s.data(), 1, frame, source) == frame &&
         std::fread(d.data(), 1, frame, damaged) == frame) {
    for (int p = 0; p < 3; p++) {
      const int w = p ? width / 2 : width, h = p ? height / 2 : height;
      const size_t at = p == 0 ? 0 : p == 1 ? luma : luma * 5 / 4;
      const int q =
          p ? daedalus::h264_chroma_qp(std::clamp(qp + chroma_offset, 0, 51))
            : qp;
      const int t = daedalus::dct_threshold(q);
      std::map<Offset, std::vector<int> > made;
      if (t > 0)
        for (const Set& set : sets)
          for (Offset o : set)
            if (!made.count(o)) made[o] = reconstruct(&d[at], w, h, o, t);
      for (size_t i = 0; i < size_t(w) * h; i++) {
        const double e = double(s[at + i]) - d[at + i];
        sse_damaged += e * e;
      }
      samples += double(w) * h;
      for (size_t k = 0; k < sets.size(); k++) {
        const int n = int(sets[k].size());
        int log2n = 0;
        while ((1 << log2n) < n) log2n++;
        for (size_t i = 0; i < size_t(w) * h; i++) {
          int out = d[at + i];
          if (t > 0) {
            int sum = 0;
            for (Offset o : sets[k]) sum += made[o][i];
            out = (sum + n / 2) >> log2n;
          }
          const double e = double(s[at + i]) - out;
          sse[k][p] += e * e;
        }
      }
    }
  }
  std::printf("{\"damaged\": %.4f, \"sets\": [", psnr(sse_damaged, samples));
  for (size_t k = 0; k < sets.size(); k++)
    std::printf("%s%.4f", k ? ", " : "",
                psnr(sse[k][0] + sse[k][1] + sse[k][2], samples));
  std::printf("], \"sse\": [");
  for (size_t k = 0; k < sets.size(); k++)
    std::printf("%s[%.0f, %.0f, %.0f]", k ? ", " : "", sse[k][0], sse[k][1],
                sse[k][2]);
  std::printf("]}\n");
  return 0;
}
