/* daedalus
 * Copyright (C) 2026 The daedalus authors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "gstdaedalusfaultybackend.h"

#include <glib.h>

namespace
{

  class FaultyBackend final:public daedalus::Backend
  {
  public:
    FaultyBackend (std::unique_ptr<daedalus::Backend> inner, guint64 good)
        : inner_ (std::move (inner)), good_ (good)
    {
    }

    daedalus::BackendKind kind () const override
    {
      return inner_->kind ();
    }

    daedalus::Status deblock (const daedalus::Frame & frame,
        const daedalus::DeblockParams & params) override
    {
      if (failing ())
        return lost ();
      return inner_->deblock (frame, params);
    }

    daedalus::Status cdef (const daedalus::Frame & dst,
        const daedalus::ConstFrame & src,
        const daedalus::CdefParams & params) override
    {
      if (failing ())
        return lost ();
      return inner_->cdef (dst, src, params);
    }

    daedalus::Status mc (const daedalus::Frame & dst,
        const daedalus::ConstFrame & src,
        const daedalus::McParams & params) override
    {
      if (failing ())
        return lost ();
      return inner_->mc (dst, src, params);
    }

  private:
    bool failing ()
    {
      return frames_++ >= good_;
    }

    static daedalus::Status lost ()
    {
      return daedalus::Status::gpu_lost ("the Vulkan device was lost "
          "(simulated: DAEDALUS_FAULT_GPU_AFTER)");
    }

    std::unique_ptr<daedalus::Backend> inner_;
    guint64 good_;
    guint64 frames_ = 0;
  };

}                               /* namespace */

std::unique_ptr<daedalus::Backend>
gst_daedalus_inject_gpu_fault (std::unique_ptr<daedalus::Backend> backend)
{
  const gchar *after = g_getenv ("DAEDALUS_FAULT_GPU_AFTER");
  if (!after || !backend || (backend->kind () != daedalus::BackendKind::Gpu
          && backend->kind () != daedalus::BackendKind::Hybrid))
    return backend;
  return std::make_unique<FaultyBackend> (std::move (backend),
      g_ascii_strtoull (after, nullptr, 10));
}
