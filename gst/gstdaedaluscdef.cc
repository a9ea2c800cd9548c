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

/**
 * SECTION:element-daedaluscdef
 * @title: daedaluscdef
 *
 * Removes ringing around edges with the AV1 Constrained Directional
 * Enhancement Filter (AV1 specification, section 7.15), applied as a
 * post-process. Each 8x8 luma block (and its chroma) is filtered along the
 * direction found in it, with the primary strength adjusted to the block's
 * variance, plus a secondary filter across that direction; taps that differ
 * too much from the centre sample are ignored, so real edges stay sharp.
 * Blocks not lying fully inside the frame are copied.
 *
 * By default (#GstDaedalusCdef:auto-strength) the element sets its
 * strengths from the damage it measures in the stream, or from the
 * estimate a daedalusdeblock upstream made before deblocking: clean video
 * passes through. Setting a strength by hand turns that off.
 *
 * It takes the 8-bit formats and I420_10LE, I422_10LE, Y444_10LE and
 * P010_10LE, on every backend.
 *
 * While all four strengths are 0 the element runs in passthrough. The
 * strength properties are controllable and follow each buffer's stream time.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=in.mkv ! decodebin ! videoconvert ! daedaluscdef pri-strength=8 sec-strength=2 ! videoconvert ! autovideosink
 * ]| De-rings a decoded file, luma harder than the default.
 * |[
 * gst-launch-1.0 videotestsrc pattern=zone-plate ! video/x-raw,format=I420,width=1280,height=720 ! daedaluscdef uv-pri-strength=0 uv-sec-strength=0 ! videoconvert ! autovideosink
 * ]| Filters luma only.
 * |[
 * gst-launch-1.0 filesrc location=in.mkv ! matroskademux ! h265parse ! avdec_h265 ! daedalusdeblock ! daedaluscdef ! videoconvert ! autovideosink
 * ]| De-blocks and de-rings HEVC Main10 at 10 bits.
 */

#include "gstdaedaluscdef.h"

#include "gstdaedaluselements.h"

#include "daedalus/auto_strength.h"
#include "daedalus/cdef.h"
#include "daedalus/frame_jobs.h"

GST_DEBUG_CATEGORY_STATIC (gst_daedalus_cdef_debug);
#define GST_CAT_DEFAULT gst_daedalus_cdef_debug

enum
{
  PROP_0,
  PROP_PRI_STRENGTH,
  PROP_SEC_STRENGTH,
  PROP_UV_PRI_STRENGTH,
  PROP_UV_SEC_STRENGTH,
  PROP_DAMPING,
  PROP_AUTO_STRENGTH,
};

/* The library's defaults, so that the element and docs/spec.md agree. */
static constexpr daedalus::CdefParams kDefaults {};
#define DEFAULT_PROP_PRI_STRENGTH kDefaults.pri_strength
#define DEFAULT_PROP_SEC_STRENGTH kDefaults.sec_strength
#define DEFAULT_PROP_UV_PRI_STRENGTH kDefaults.uv_pri_strength
#define DEFAULT_PROP_UV_SEC_STRENGTH kDefaults.uv_sec_strength
#define DEFAULT_PROP_DAMPING kDefaults.damping

#define CONTROLLABLE_PARAM_FLAGS \
  ((GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING))

struct _GstDaedalusCdef
{
  GstDaedalusFilter parent;

  /* Object lock. The settings in use are `applied` while auto_strength,
   * else `params` (the properties as set). */
  daedalus::CdefParams params;
  daedalus::CdefParams applied;
  gboolean auto_strength;
};

G_DEFINE_TYPE (GstDaedalusCdef, gst_daedalus_cdef, GST_TYPE_DAEDALUS_FILTER);
GST_ELEMENT_REGISTER_DEFINE (daedaluscdef, "daedaluscdef", GST_RANK_NONE,
    GST_TYPE_DAEDALUS_CDEF);

static void gst_daedalus_cdef_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec);
static void gst_daedalus_cdef_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec);
static gboolean gst_daedalus_cdef_is_noop (GstDaedalusFilter *filter,
    const GstVideoInfo *info);
static daedalus::FrameJob gst_daedalus_cdef_make_job (
    GstDaedalusFilter *filter);
static GstFlowReturn gst_daedalus_cdef_transform_frame (GstVideoFilter *vfilter,
    GstVideoFrame *in_frame, GstVideoFrame *out_frame);
static gboolean gst_daedalus_cdef_auto_strength (GstDaedalusFilter *filter);
static void gst_daedalus_cdef_apply_estimate (GstDaedalusFilter *filter,
    const daedalus::DamageEstimate *estimate);

static void
gst_daedalus_cdef_class_init (GstDaedalusCdefClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstVideoFilterClass *vfilter_class = GST_VIDEO_FILTER_CLASS (klass);
  GstDaedalusFilterClass *filter_class = GST_DAEDALUS_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_daedalus_cdef_debug, "daedaluscdef", 0,
      "AV1 CDEF de-ringing filter");

  gobject_class->set_property = gst_daedalus_cdef_set_property;
  gobject_class->get_property = gst_daedalus_cdef_get_property;

  g_object_class_install_property (gobject_class, PROP_PRI_STRENGTH,
      g_param_spec_int ("pri-strength", "Luma primary strength",
          "Luma filtering along each block's edge direction, scaled by the "
          "block's variance; 0 turns it off, higher removes more ringing",
          0, 15, DEFAULT_PROP_PRI_STRENGTH, CONTROLLABLE_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_SEC_STRENGTH,
      g_param_spec_int ("sec-strength", "Luma secondary strength",
          "Luma filtering across the edge direction; 0 turns it off, 3 acts "
          "as 4 (as AV1 codes it)",
          0, 4, DEFAULT_PROP_SEC_STRENGTH, CONTROLLABLE_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_UV_PRI_STRENGTH,
      g_param_spec_int ("uv-pri-strength", "Chroma primary strength",
          "Chroma filtering along the luma block's edge direction (not "
          "scaled by variance); 0 turns it off, higher removes more ringing",
          0, 15, DEFAULT_PROP_UV_PRI_STRENGTH, CONTROLLABLE_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_UV_SEC_STRENGTH,
      g_param_spec_int ("uv-sec-strength", "Chroma secondary strength",
          "Chroma filtering across the edge direction; 0 turns it off, 3 acts "
          "as 4 (as AV1 codes it)",
          0, 4, DEFAULT_PROP_UV_SEC_STRENGTH, CONTROLLABLE_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_DAMPING,
      g_param_spec_int ("damping", "Damping",
          "How large a difference from the centre sample still counts "
          "(luma; chroma uses damping - 1); higher smooths stronger edges too",
          3, 6, DEFAULT_PROP_DAMPING, CONTROLLABLE_PARAM_FLAGS));

  /**
   * GstDaedalusCdef:auto-strength:
   *
   * Sets the strengths and the damping from the damage measured in the
   * stream (docs/spec.md, "Damage estimate and auto strength"), or taken
   * from a daedalusdeblock upstream that measured it before deblocking:
   * clean video passes through. Setting any strength or the damping turns
   * it off; while on, they read back the values the last frame used
   * (before the first frame: the strongest automatic setting). Each change
   * of the estimate is posted as an element message "daedalus-damage".
   */
  gst_daedalus_filter_install_auto_strength (gobject_class, PROP_AUTO_STRENGTH);

  gst_element_class_set_static_metadata (element_class,
      "Daedalus AV1 CDEF de-ringing filter", "Filter/Effect/Video",
      "Removes ringing around edges with the AV1 constrained directional "
      "enhancement filter, at user-given strengths",
      "The daedalus authors");

  vfilter_class->transform_frame =
      GST_DEBUG_FUNCPTR (gst_daedalus_cdef_transform_frame);
  filter_class->is_noop = GST_DEBUG_FUNCPTR (gst_daedalus_cdef_is_noop);
  filter_class->make_job = GST_DEBUG_FUNCPTR (gst_daedalus_cdef_make_job);
  filter_class->debug_category = gst_daedalus_cdef_debug;
  filter_class->auto_strength =
      GST_DEBUG_FUNCPTR (gst_daedalus_cdef_auto_strength);
  filter_class->apply_estimate =
      GST_DEBUG_FUNCPTR (gst_daedalus_cdef_apply_estimate);
  filter_class->takes_upstream_estimate = TRUE;
}

static void
gst_daedalus_cdef_init (GstDaedalusCdef *self)
{
  self->params = kDefaults;
  self->auto_strength = TRUE;
  gst_daedalus_cdef_apply_estimate (GST_DAEDALUS_FILTER (self), nullptr);
}

static void
gst_daedalus_cdef_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstDaedalusCdef *self = GST_DAEDALUS_CDEF (object);
  GstDaedalusObjectLock lock (self);
  daedalus::CdefParams &p = self->params;

  switch (prop_id) {
    case PROP_AUTO_STRENGTH:
      if (g_value_get_boolean (value) && !self->auto_strength)
        gst_daedalus_filter_restart_estimate_locked (
            GST_DAEDALUS_FILTER (self));
      self->auto_strength = g_value_get_boolean (value);
      return;
    case PROP_PRI_STRENGTH:
      p.pri_strength = g_value_get_int (value);
      break;
    case PROP_SEC_STRENGTH:
      p.sec_strength = g_value_get_int (value);
      break;
    case PROP_UV_PRI_STRENGTH:
      p.uv_pri_strength = g_value_get_int (value);
      break;
    case PROP_UV_SEC_STRENGTH:
      p.uv_sec_strength = g_value_get_int (value);
      break;
    case PROP_DAMPING:
      p.damping = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
  }
  /* A hand-set strength: the user's settings from now on. GObject holds
   * the notification until the setter returns, after the lock. */
  if (self->auto_strength)
    g_object_notify (object, "auto-strength");
  self->auto_strength = FALSE;
}

static void
gst_daedalus_cdef_get_property (GObject *object, guint prop_id, GValue *value,
    GParamSpec *pspec)
{
  GstDaedalusCdef *self = GST_DAEDALUS_CDEF (object);
  GstDaedalusObjectLock lock (self);
  const daedalus::CdefParams &p =
      self->auto_strength ? self->applied : self->params;

  switch (prop_id) {
    case PROP_AUTO_STRENGTH:
      g_value_set_boolean (value, self->auto_strength);
      break;
    case PROP_PRI_STRENGTH:
      g_value_set_int (value, p.pri_strength);
      break;
    case PROP_SEC_STRENGTH:
      g_value_set_int (value, p.sec_strength);
      break;
    case PROP_UV_PRI_STRENGTH:
      g_value_set_int (value, p.uv_pri_strength);
      break;
    case PROP_UV_SEC_STRENGTH:
      g_value_set_int (value, p.uv_sec_strength);
      break;
    case PROP_DAMPING:
      g_value_set_int (value, p.damping);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static daedalus::CdefParams
get_params (GstDaedalusCdef *self)
{
  GstDaedalusObjectLock lock (self);
  return self->auto_strength ? self->applied : self->params;
}

static gboolean
gst_daedalus_cdef_auto_strength (GstDaedalusFilter *filter)
{
  GstDaedalusObjectLock lock (filter);
  return GST_DAEDALUS_CDEF (filter)->auto_strength;
}

static void
gst_daedalus_cdef_apply_estimate (GstDaedalusFilter *filter,
    const daedalus::DamageEstimate *estimate)
{
  const daedalus::CdefParams p = daedalus::auto_cdef_params (
      estimate ? *estimate : daedalus::strongest_damage ());
  GstDaedalusObjectLock lock (filter);
  GST_DAEDALUS_CDEF (filter)->applied = p;
}

static gboolean
gst_daedalus_cdef_is_noop (GstDaedalusFilter *filter, const GstVideoInfo *)
{
  return daedalus::cdef_is_noop (get_params (GST_DAEDALUS_CDEF (filter)));
}

static daedalus::FrameJob
gst_daedalus_cdef_make_job (GstDaedalusFilter *filter)
{
  return daedalus::cdef_job (get_params (GST_DAEDALUS_CDEF (filter)));
}

static GstFlowReturn
gst_daedalus_cdef_transform_frame (GstVideoFilter *vfilter,
    GstVideoFrame *in_frame, GstVideoFrame *out_frame)
{
  return gst_daedalus_filter_run (GST_DAEDALUS_FILTER (vfilter),
      gst_daedalus_frame_view (out_frame), gst_daedalus_frame_view (in_frame));
}
