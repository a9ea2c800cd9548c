// The VP9 loop filter of docs/spec.md, daedalusdeblock mode=vp9 (and "High
// bit depth"): written to be read against the spec (and VP9's masks and
// filters), not to be fast.
#include "deblock_vp9_ref.h"

#include <algorithm>
#include <cstdlib>

namespace daedalus {
namespace {

int clip3(int lo, int hi, int v) { return std::clamp(v, lo, hi); }

// A line across the edge: s(i) is the sample at signed position i, q0 at 0
// and p0 at -1, for i in -8 .. 7 (the 8 and 4-wide filters read -4 .. 3).
struct Line {
  int v[16];
  int s(int i) const { return v[i + 8]; }
};

// Whether |s(a) - s(b)| <= bound for every pair {a, b}.
template <size_t N>
bool all_within(const Line& l, const int (&pairs)[N][2], int bound) {
  for (const auto& ab : pairs)
    if (std::abs(l.s(ab[0]) - l.s(ab[1])) > bound) return false;
  return true;
}

// The 4-tap filter on p1 p0 q0 q1, in signed values v - half, half =
// 128 << (bit depth - 8).
void filter4(const Line& l, bool hev, int half, int out[16]) {
  const auto c = [half](int v) { return clip3(-half, half - 1, v); };
  const int ps1 = l.s(-2) - half, ps0 = l.s(-1) - half;
  const int qs0 = l.s(0) - half, qs1 = l.s(1) - half;
  int f = hev ? c(ps1 - qs1) : 0;
  f = c(f + 3 * (qs0 - ps0));
  const int f1 = c(f + 4) >> 3, f2 = c(f + 3) >> 3;
  out[8] = c(qs0 - f1) + half;
  out[7] = c(ps0 + f2) + half;
  if (!hev) {
    f = (f1 + 1) >> 1;
    out[9] = c(qs1 - f) + half;
    out[6] = c(ps1 + f) + half;
  }
}

// The wide filter with n = 3 (7 taps) or n = 7 (15 taps).
void wide_filter(const Line& l, int n, int out[16]) {
  const int k = n == 3 ? 3 : 4;
  for (int i = -n; i < n; i++) {
    int sum = 0;
    for (int j = -n; j <= n; j++)
      sum += l.s(clip3(-(n + 1), n, i + j)) * (j == 0 ? 2 : 1);
    out[i + 8] = (sum + (1 << (k - 1))) >> k;
  }
}

}  // namespace

template <class S>
void vp9_filter_edge_ref(const SampleLine<S>& s, const DeblockPlaneParams& pp,
                         int bit_depth) {
  const int wd = pp.block_size, reach = deblock_edge_reach(pp);
  const int cs = bit_depth - 8, flat_bound = 1 << cs;
  const Vp9Thresholds& t = pp.vp9;
  Line l = {};
  for (int i = -reach; i < reach; i++) l.v[i + 8] = s.get(i);

  // The seven conditions of the filter mask.
  static const int kSteps[][2] = {{-4, -3}, {-3, -2}, {-2, -1},
                                  {1, 0},   {2, 1},   {3, 2}};
  const bool mask =
      all_within(l, kSteps, t.limit) &&
      std::abs(l.s(-1) - l.s(0)) * 2 + (std::abs(l.s(-2) - l.s(1)) >> 1) <=
          t.blimit;
  if (!mask) return;
  const bool hev = std::abs(l.s(-2) - l.s(-1)) > t.thresh ||
                   std::abs(l.s(1) - l.s(0)) > t.thresh;
  static const int kFlat[][2] = {{-2, -1}, {1, 0},   {-3, -1},
                                 {2, 0},   {-4, -1}, {3, 0}};
  const bool flat = wd >= 8 && all_within(l, kFlat, flat_bound);
  static const int kFlat2[][2] = {{-5, -1}, {-6, -1}, {-7, -1}, {-8, -1},
                                  {4, 0},   {5, 0},   {6, 0},   {7, 0}};
  const bool flat2 = wd == 16 && all_within(l, kFlat2, flat_bound);

  int out[16];
  std::copy(l.v, l.v + 16, out);
  if (wd == 16 && flat2 && flat)
    wide_filter(l, 7, out);
  else if (wd >= 8 && flat)
    wide_filter(l, 3, out);
  else
    filter4(l, hev, 128 << cs, out);
  for (int i = -reach; i < reach; i++) s.set(i, out[i + 8]);
}

template void vp9_filter_edge_ref(const SampleLine<uint8_t>&,
                                  const DeblockPlaneParams&, int);
template void vp9_filter_edge_ref(const SampleLine<uint16_t>&,
                                  const DeblockPlaneParams&, int);

}  // namespace daedalus
