// The harness fails on what it is there to catch: backends that get a
// sample wrong, write a padding byte or change the source, each wrapping
// the scalar backend; and DSP entries that get a sum wrong, write a guard
// word or change the source, each wrapping the reference's entry.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "harness.h"

namespace daedalus::harness {
namespace {

enum class Fault { WrongSample, PaddingWritten, SourceChanged };

class FaultyBackend : public Backend {
 public:
  explicit FaultyBackend(Fault fault)
      : fault_(fault), inner_(make_backend(BackendKind::Scalar)) {}

  BackendKind kind() const override { return BackendKind::Cpu; }

  Status do_deblock(const Frame& frame, const DeblockParams& params) override {
    const Status s = inner_->deblock(frame, params);
    damage(frame, frame);
    return s;
  }
  Status do_cdef(const Frame& dst, const ConstFrame& src,
                 const CdefParams& params) override {
    const Status s = inner_->cdef(dst, src, params);
    damage(dst, src);
    return s;
  }
  Status do_mc(const Frame& dst, const ConstFrame& src,
               const McParams& params) override {
    const Status s = inner_->mc(dst, src, params);
    damage(dst, src);
    return s;
  }

 private:
  // On the last row of plane 0: its last sample's low bit flipped, the
  // byte after it (padding, where the row has any) written, or the
  // source's first byte changed.
  void damage(const Frame& dst, const ConstFrame& src) const {
    const Plane& p = dst.planes[0];
    if (p.width == 0 || p.height == 0) return;
    uint8_t* last = &p.at(p.width - 1, p.height - 1);
    switch (fault_) {
      case Fault::WrongSample:
        last[0] ^= uint8_t(1 << p.lsb);
        break;
      case Fault::PaddingWritten:
        if (p.stride > ptrdiff_t(p.width) * p.step)
          last[p.bytes_per_sample()] ^= 1;
        break;
      case Fault::SourceChanged:
        const_cast<uint8_t&>(src.planes[0].at(0, 0)) ^= 1;
        break;
    }
  }

  const Fault fault_;
  const std::unique_ptr<Backend> inner_;
};

const Case& case_named(const std::string& name) {
  for (const Case& c : all_cases())
    if (c.name == name) return c;
  ADD_FAILURE() << "no case " << name;
  return all_cases().front();
}

void expect_caught(Fault fault, const std::string& case_name,
                   const char* message) {
  FaultyBackend faulty(fault);
  const std::vector<Subject> subjects = {{"faulty", &faulty, {}}};
  EXPECT_NONFATAL_FAILURE(run_case(case_named(case_name), subjects, {}),
                          message);
}

TEST(HarnessSelfTest, CatchesAWrongSample) {
  expect_caught(Fault::WrongSample, "Mc", "expected");
  expect_caught(Fault::WrongSample, "DeblockH264", "expected");
}

TEST(HarnessSelfTest, CatchesAPaddingByteWritten) {
  expect_caught(Fault::PaddingWritten, "Cdef", "bytes outside");
  expect_caught(Fault::PaddingWritten, "DeblockDct", "bytes outside");
}

TEST(HarnessSelfTest, CatchesTheSourceChanged) {
  expect_caught(Fault::SourceChanged, "Mc", "the source changed");
}

enum class DspFault { WrongSum, GuardWordWritten, SourceChanged };

void expect_dsp_caught(DspFault fault, const char* message) {
  const DspCase& c = all_dsp_cases().front();
  const DspCase::Entry inner = c.reference();
  const DspCase::Entry faulty = [&](const ConstPlane& plane, int y_begin,
                                    int y_end, uint32_t* out) {
    inner(plane, y_begin, y_end, out);
    const size_t n = c.words(plane);
    if (n == 0 || plane.width == 0) return;
    switch (fault) {
      case DspFault::WrongSum:
        out[n - 1] += 1;
        break;
      case DspFault::GuardWordWritten:
        out[n] ^= 1;
        break;
      case DspFault::SourceChanged:
        const_cast<uint8_t&>(plane.at(0, 0)) ^= 1;
        break;
    }
  };
  EXPECT_NONFATAL_FAILURE(run_dsp_case(c, {{"faulty", faulty}}), message);
}

TEST(HarnessSelfTest, CatchesAWrongSum) {
  expect_dsp_caught(DspFault::WrongSum, "expected");
}

TEST(HarnessSelfTest, CatchesAGuardWordWritten) {
  expect_dsp_caught(DspFault::GuardWordWritten, "words outside");
}

TEST(HarnessSelfTest, CatchesTheSourceChangedByADspEntry) {
  expect_dsp_caught(DspFault::SourceChanged, "the source changed");
}

}  // namespace
}  // namespace daedalus::harness
