/* daedalus
 * Copyright (C) 2026 The daedalus authors
 *
 * This library is free software; you can redistribute it and/or modify it
 * under the terms of the GNU Lesser General Public License as published by
 * the Free Software Foundation; either version 2.1 of the License, or (at
 * your option) any later version.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* GstDaedalusFilter: the abstract base of every daedalus element. It owns the
 * caps, the backend choice, the gpu backend's buffer pools and per-buffer
 * controller sync; a subclass adds its parameters, says when they are a
 * no-op, and makes one backend call per frame. */
#pragma once

#include <gst/video/gstvideofilter.h>

#include "daedalus/backend.h"
#include "daedalus/backend_choice.h"
#include "daedalus/damage.h"
#include "daedalus/frame.h"

G_BEGIN_DECLS

/**
 * GstDaedalusBackend:
 * @GST_DAEDALUS_BACKEND_AUTO: the fastest backend available
 * @GST_DAEDALUS_BACKEND_SCALAR: the scalar reference, on the streaming thread
 * @GST_DAEDALUS_BACKEND_CPU: SIMD kernels spread over the CPU cores
 * @GST_DAEDALUS_BACKEND_GPU: Vulkan compute shaders
 * @GST_DAEDALUS_BACKEND_HYBRID: each frame split by rows between the CPU
 *     cores and the GPU, in proportion to their measured speeds
 *
 * Which implementation of the kernels an element runs. Every backend gives
 * the same output, bit for bit.
 */
typedef enum
{
  GST_DAEDALUS_BACKEND_AUTO,
  GST_DAEDALUS_BACKEND_SCALAR,
  GST_DAEDALUS_BACKEND_CPU,
  GST_DAEDALUS_BACKEND_GPU,
  GST_DAEDALUS_BACKEND_HYBRID,
} GstDaedalusBackend;

#define GST_TYPE_DAEDALUS_BACKEND (gst_daedalus_backend_get_type ())
GType gst_daedalus_backend_get_type (void);

#define GST_TYPE_DAEDALUS_FILTER (gst_daedalus_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstDaedalusFilter, gst_daedalus_filter, GST,
    DAEDALUS_FILTER, GstVideoFilter)

/**
 * GstDaedalusFilterClass:
 * @is_noop: whether the current settings leave every frame of @info
 *     unchanged; the element then runs in passthrough. Called on the
 *     streaming thread; takes the object lock itself.
 * @make_job: the frame call with the current settings (backend=auto times
 *     it on each backend). Takes the object lock itself.
 * @debug_category: the element's own, where the backend choice and the
 *     damage estimate are logged.
 * @auto_strength: elements whose settings may follow the damage estimate
 *     (deblock, CDEF): whether they do now. NULL for the others. Takes the
 *     object lock itself.
 * @apply_estimate: sets the settings for @estimate (before each frame,
 *     while @auto_strength), or, when NULL (no frame since the last reset),
 *     the strongest ones, which the backend choice times. Takes the object
 *     lock itself.
 * @takes_upstream_estimate: uses the estimate an upstream daedalusdeblock
 *     left on a buffer instead of measuring it (CDEF, whose input that
 *     deblock has filtered).
 * @shares_estimate: leaves its estimate on the buffers it filters, while
 *     auto, for the element above (deblock).
 */
struct _GstDaedalusFilterClass
{
  GstVideoFilterClass parent_class;

  gboolean (*is_noop) (GstDaedalusFilter *filter, const GstVideoInfo *info);
  daedalus::FrameJob (*make_job) (GstDaedalusFilter *filter);
  GstDebugCategory *debug_category;
  gboolean (*auto_strength) (GstDaedalusFilter *filter);
  void (*apply_estimate) (GstDaedalusFilter *filter,
      const daedalus::DamageEstimate *estimate);
  gboolean takes_upstream_estimate;
  gboolean shares_estimate;
};

G_END_DECLS

/* Runs a frame through make_job's call on the backend chosen at
 * negotiation (on the streaming thread: inside transform_frame[_ip]); @dst
 * is @src for an in-place job. A frame of two interleaved fields
 * (interlace-mode interleaved, or a mixed stream's buffer flagged
 * interlaced) is run as two pictures, one per field (docs/spec.md,
 * "Interlaced video"). When a gpu or hybrid backend that auto chose
 * fails, warns once and redoes the frame on the cpu backend, which it keeps
 * from then on, through later negotiations too. Otherwise a failure posts an element error carrying the
 * backend's message and returns GST_FLOW_ERROR. */
GstFlowReturn gst_daedalus_filter_run (GstDaedalusFilter *filter,
    const daedalus::Frame &dst, const daedalus::ConstFrame &src);

/* Makes the next frame start the damage estimate over (auto strength
 * turned on again: the frames since it was off were not measured). Call
 * with the object lock held. */
void gst_daedalus_filter_restart_estimate_locked (GstDaedalusFilter *filter);

/* Installs the boolean property "auto-strength" (default TRUE) as
 * @prop_id of an element with a damage estimate. */
void gst_daedalus_filter_install_auto_strength (GObjectClass *klass,
    guint prop_id);

/* For an element that takes progressive video only (its class_init calls
 * it): caps of any other interlace-mode are refused at negotiation. */
void gst_daedalus_filter_class_set_progressive_only (
    GstDaedalusFilterClass *klass);

/* A view of a mapped frame's samples: components 0..2 (Y, U, V whatever the
 * plane order), with the frame's strides, offsets and pixel strides, so
 * GstVideoMeta layouts and NV12/NV21/P010 interleaving come through, and
 * its bit depth and the position of a deeper sample's value (P010: 6). */
daedalus::Frame gst_daedalus_frame_view (const GstVideoFrame *frame);

/* Holds the object lock for a scope; never across a frame. */
class GstDaedalusObjectLock {
public:
  explicit GstDaedalusObjectLock (gpointer object)
      : object_ (GST_OBJECT_CAST (object))
  {
    GST_OBJECT_LOCK (object_);
  }
  ~GstDaedalusObjectLock ()
  {
    GST_OBJECT_UNLOCK (object_);
  }
  GstDaedalusObjectLock (const GstDaedalusObjectLock &) = delete;
  GstDaedalusObjectLock &operator= (const GstDaedalusObjectLock &) = delete;

private:
  GstObject *object_;
};
