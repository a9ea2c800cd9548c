// daedalus-bench: ms per frame of every kernel on every backend, target and
// thread count, with the speed-up over the scalar reference measured in the
// same run.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "daedalus/backend.h"
#include "daedalus/image.h"
#include "daedalus_config.h"
#if DAEDALUS_HAVE_SIMD
#include <hwy/targets.h>
#endif
#if DAEDALUS_HAVE_VULKAN
#include "daedalus/backend_gpu.h"
#endif

namespace daedalus {
namespace {

struct Options {
  std::vector<std::string> kernels = {"deblock", "cdef", "mc"};
  std::vector<std::pair<int, int>> sizes = {{1920, 1080}, {1280, 720}};
  std::vector<PixelFormat> formats = {PixelFormat::I420, PixelFormat::NV12};
  std::vector<int> threads = {1, 2};
  double min_seconds = 0.25;
  bool json = false;
};

struct Result {
  std::string kernel, format, backend, target;
  int width, height, threads;
  double ms;
  double speedup;  // over scalar, same kernel/format/size
  // gpu only (medians, ms): host copies in, GPU execution, host copies out;
  // < 0 when not measured.
  double upload_ms = -1, gpu_ms = -1, readback_ms = -1;
};

// Medians of the parts of a gpu frame call, collected per timed run.
struct GpuSplit {
  std::vector<double> upload, gpu, readback;
};

double median(std::vector<double> v) {
  if (v.empty()) return -1;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// The workload each speed target in the issues is stated for.
struct Workload {
  std::string name;
  bool in_place;
  std::function<void(std::mt19937&, Image&)> fill;
  std::function<Status(Backend&, const Frame& dst, const ConstFrame& src)> run;
};

std::vector<Workload> workloads() {
  // Deblock: block-size 4, bs 2, qp 51 and content within a range of 16, so
  // alpha (255) and beta (18) let every edge be filtered.
  DeblockParams deblock;
  deblock.qp = 51;
  deblock.bs = 2;
  deblock.block_size = 4;
  CdefParams cdef;  // pri 4, sec 1, damping 3 on both planes
  cdef.pri_strength = cdef.uv_pri_strength = 4;
  cdef.sec_strength = cdef.uv_sec_strength = 1;
  cdef.damping = 3;
  McParams mc;
  mc.dx = 0.3;
  mc.dy = 0.7;
  auto fill_range = [](int lo, int hi) {
    return [lo, hi](std::mt19937& gen, Image& image) {
      std::uniform_int_distribution<int> d(lo, hi);
      for (uint8_t& b : image.bytes()) b = uint8_t(d(gen));
    };
  };
  return {
      {"deblock", true, fill_range(120, 135),
       [=](Backend& b, const Frame& dst, const ConstFrame&) {
         return b.deblock(dst, deblock);
       }},
      {"cdef", false, fill_range(0, 255),
       [=](Backend& b, const Frame& dst, const ConstFrame& src) {
         return b.cdef(dst, src, cdef);
       }},
      {"mc", false, fill_range(0, 255),
       [=](Backend& b, const Frame& dst, const ConstFrame& src) {
         return b.mc(dst, src, mc);
       }},
  };
}

// Median ms of `call` over repetitions lasting at least `min_seconds` (and at
// least 5); `reset` runs untimed before each, `after` after each.
double time_ms(double min_seconds, const std::function<void()>& reset,
               const std::function<Status()>& call,
               const std::function<void()>& after = [] {}) {
  using clock = std::chrono::steady_clock;
  std::vector<double> samples;
  const auto start = clock::now();
  while (samples.size() < 5 ||
         std::chrono::duration<double>(clock::now() - start).count() < min_seconds) {
    reset();
    const auto t0 = clock::now();
    const Status s = call();
    const auto t1 = clock::now();
    if (!s) {
      std::fprintf(stderr, "daedalus-bench: %s\n", s.message().c_str());
      return -1;
    }
    after();
    samples.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    if (samples.size() >= 1000) break;
  }
  return median(samples);
}

// A kernel on a backend with frames in ordinary memory. In-place kernels get
// a fresh copy of the input before each timed run.
double time_frames(const Workload& w, Backend& backend, const Image& src,
                   double min_seconds, const std::function<void()>& after = [] {}) {
  Image dst = src;
  return time_ms(
      min_seconds,
      [&] {
        if (w.in_place)
          std::memcpy(dst.bytes().data(), src.bytes().data(), src.bytes().size());
      },
      [&] { return w.run(backend, dst.frame(), src.frame()); }, after);
}

// The cpu backend once per Highway target this build has and the CPU runs,
// best first; a build without SIMD has none.
std::vector<std::pair<std::string, int64_t>> cpu_targets() {
  std::vector<std::pair<std::string, int64_t>> out;
#if DAEDALUS_HAVE_SIMD
  for (int64_t t : hwy::SupportedAndGeneratedTargets()) out.push_back({hwy::TargetName(t), t});
#endif
  return out;
}

void restrict_targets(int64_t target) {
#if DAEDALUS_HAVE_SIMD
  hwy::SetSupportedTargetsForTest(target);
#else
  (void)target;
#endif
}

#if DAEDALUS_HAVE_VULKAN
// One gpu backend for the whole run (creating a device is slow); null, with
// the reason printed once, when there is no usable device.
GpuBackend* gpu_backend() {
  static std::unique_ptr<GpuBackend> gpu = [] {
    std::unique_ptr<GpuBackend> b;
    const Status s = create_gpu_backend(GpuOptions::from_env(), &b);
    if (!s) std::fprintf(stderr, "daedalus-bench: no gpu rows: %s\n", s.message().c_str());
    else std::fprintf(stderr, "daedalus-bench: gpu device: %s (%s)\n",
                      b->device_info().name.c_str(), b->device_info().type.c_str());
    return b;
  }();
  return gpu.get();
}

// `image`'s frame, moved onto a copy of its bytes at `base`.
Frame rebased(const Image& image, uint8_t* base) {
  Frame f = const_cast<Image&>(image).frame();
  const uint8_t* old = image.bytes().data();
  for (int p = 0; p < f.num_planes; p++) f.planes[p].data = base + (f.planes[p].data - old);
  return f;
}

// gpu rows: frames in ordinary memory (copied in and out: "staged"; its
// upload and readback columns are the time the frame's bytes take to cross
// into and out of Vulkan memory) and frames already in GpuBuffers
// ("zero-copy").
template <class Record>
void bench_gpu(const Workload& w, GpuBackend& gpu, const Image& src, const Options& o,
               double scalar_ms, Record record) {
  GpuSplit split;
  const auto collect = [&] {
    const GpuFrameStats& st = gpu.last_frame_stats();
    split.upload.push_back(st.upload_ms);
    split.gpu.push_back(st.gpu_ms);
    split.readback.push_back(st.readback_ms);
  };
  const auto finish = [&](Result& r) {
    r.upload_ms = median(split.upload);
    r.gpu_ms = median(split.gpu);
    r.readback_ms = median(split.readback);
    split = {};
  };
  finish(record("gpu", "staged", 1, time_frames(w, gpu, src, o.min_seconds, collect),
                scalar_ms));

  const size_t bytes = src.bytes().size();
  std::unique_ptr<GpuBuffer> in, out;
  if (!gpu.allocate_buffer(bytes, &in) || !gpu.allocate_buffer(bytes, &out)) return;
  std::memcpy(in->data(), src.bytes().data(), bytes);
  std::memcpy(out->data(), src.bytes().data(), bytes);
  const Frame in_frame = rebased(src, in->data());
  const Frame out_frame = rebased(src, out->data());
  const double zero_copy_ms = time_ms(
      o.min_seconds,
      [&] {
        if (w.in_place) std::memcpy(out->data(), src.bytes().data(), bytes);
      },
      [&] { return w.run(gpu, out_frame, in_frame); }, collect);
  finish(record("gpu", "zero-copy", 1, zero_copy_ms, scalar_ms));

}
#endif

std::vector<Result> run_all(const Options& o) {
  std::vector<Result> results;
  std::mt19937 gen(1234);
  for (const Workload& w : workloads()) {
    if (std::find(o.kernels.begin(), o.kernels.end(), w.name) == o.kernels.end()) continue;
    for (auto [width, height] : o.sizes)
      for (PixelFormat format : o.formats) {
        Image src(format, width, height);
        w.fill(gen, src);
        const auto record = [&](std::string backend, std::string target, int threads,
                                double ms, double scalar_ms) -> Result& {
          results.push_back({w.name, std::string(pixel_format_name(format)), backend,
                             target, width, height, threads, ms,
                             scalar_ms > 0 ? scalar_ms / ms : 1.0});
          if (!o.json)
            std::fprintf(stderr, "  %s %dx%d %s %s %s x%d: %.3f ms\n", w.name.c_str(),
                         width, height, pixel_format_name(format).data(),
                         backend.c_str(), target.c_str(), threads, ms);
          return results.back();
        };
        const auto add = [&](std::string backend, std::string target, int threads,
                             Backend& b, double scalar_ms) {
          const double ms = time_frames(w, b, src, o.min_seconds);
          record(backend, target, threads, ms, scalar_ms);
          return ms;
        };
        auto scalar = create_backend(BackendKind::Scalar, nullptr);
        const double scalar_ms = add("scalar", "-", 1, *scalar, 0);
        for (auto [target_name, target] : cpu_targets())
          for (int threads : o.threads) {
            restrict_targets(target);
            std::string why;
            auto cpu = create_backend(BackendKind::Cpu, &why, {threads});
            restrict_targets(0);
            if (cpu) add("cpu", target_name, threads, *cpu, scalar_ms);
          }
#if DAEDALUS_HAVE_VULKAN
        if (GpuBackend* gpu = gpu_backend()) bench_gpu(w, *gpu, src, o, scalar_ms, record);
#endif
      }
  }
  return results;
}

void print_table(const std::vector<Result>& results) {
  std::printf("%-8s %-10s %-6s %-7s %-9s %7s %10s %10s %9s  %s\n", "kernel", "size",
              "format", "backend", "target", "threads", "ms/frame", "Mpixel/s",
              "x scalar", "gpu split: upload / gpu / readback ms");
  for (const Result& r : results) {
    char size[32];
    std::snprintf(size, sizeof size, "%dx%d", r.width, r.height);
    std::printf("%-8s %-10s %-6s %-7s %-9s %7d %10.3f %10.1f %9.2f", r.kernel.c_str(),
                size, r.format.c_str(), r.backend.c_str(), r.target.c_str(), r.threads,
                r.ms, r.width * double(r.height) / (r.ms * 1e3), r.speedup);
    if (r.upload_ms >= 0)
      std::printf("  %.3f / %.3f / %.3f", r.upload_ms, r.gpu_ms, r.readback_ms);
    std::printf("\n");
  }
}

void print_json(const std::vector<Result>& results) {
  std::printf("[\n");
  for (size_t i = 0; i < results.size(); i++) {
    const Result& r = results[i];
    std::printf(
        "  {\"kernel\": \"%s\", \"width\": %d, \"height\": %d, \"format\": \"%s\", "
        "\"backend\": \"%s\", \"target\": \"%s\", \"threads\": %d, "
        "\"ms_per_frame\": %.4f, \"mpixel_per_s\": %.2f, \"speedup_vs_scalar\": %.3f, "
        "\"upload_ms\": %.4f, \"gpu_ms\": %.4f, \"readback_ms\": %.4f}%s\n",
        r.kernel.c_str(), r.width, r.height, r.format.c_str(), r.backend.c_str(),
        r.target.c_str(), r.threads, r.ms, r.width * double(r.height) / (r.ms * 1e3),
        r.speedup, r.upload_ms, r.gpu_ms, r.readback_ms, i + 1 < results.size() ? "," : "");
  }
  std::printf("]\n");
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

bool parse(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--json") {
      o->json = true;
    } else if (a == "--kernels" && has_value) {
      o->kernels = split(argv[++i]);
    } else if (a == "--threads" && has_value) {
      o->threads.clear();
      for (const std::string& t : split(argv[++i])) o->threads.push_back(std::stoi(t));
    } else if (a == "--sizes" && has_value) {
      o->sizes.clear();
      for (const std::string& s : split(argv[++i])) {
        int w = 0, h = 0;
        if (std::sscanf(s.c_str(), "%dx%d", &w, &h) != 2 || w < 1 || h < 1) return false;
        o->sizes.push_back({w, h});
      }
    } else if (a == "--formats" && has_value) {
      o->formats.clear();
      for (const std::string& f : split(argv[++i])) {
        bool found = false;
        for (PixelFormat p : kAllPixelFormats)
          if (pixel_format_name(p) == f) o->formats.push_back(p), found = true;
        if (!found) return false;
      }
    } else if (a == "--min-time" && has_value) {
      o->min_seconds = std::stod(argv[++i]);
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace
}  // namespace daedalus

int main(int argc, char** argv) {
  daedalus::Options options;
  if (!daedalus::parse(argc, argv, &options)) {
    std::fprintf(stderr,
                 "usage: daedalus-bench [--kernels deblock,cdef,mc] [--sizes 1920x1080,...]\n"
                 "       [--formats I420,NV12,...] [--threads 1,2] [--min-time SECONDS] [--json]\n"
                 "Workloads: deblock qp=51 bs=2 block-size=4 (every edge filtered);\n"
                 "cdef pri 4 sec 1 damping 3 on random content; mc regular dx=0.3 dy=0.7.\n"
                 "Backends: scalar; cpu per Highway target and thread count; gpu with frames\n"
                 "in ordinary memory (staged) and in Vulkan buffers (zero-copy).\n"
                 "-1: not measured.\n"
                 "The gpu device follows $DAEDALUS_VULKAN_DEVICE.\n");
    return 2;
  }
  const auto results = daedalus::run_all(options);
  if (options.json)
    daedalus::print_json(results);
  else
    daedalus::print_table(results);
  return 0;
}
