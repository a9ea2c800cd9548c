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
 * SECTION:element-daedalusmc
 * @title: daedalusmc
 *
 * Shifts the picture by a sub-sample amount with the VP9 motion compensation
 * interpolation filters: out(x, y) = in(x + #GstDaedalusMc:dx,
 * y + #GstDaedalusMc:dy), in luma samples, with 1/16-sample precision in each
 * plane. Samples from outside the frame repeat its nearest edge sample.
 *
 * It takes progressive video in the 8-bit formats and in I420_10LE,
 * I422_10LE, Y444_10LE and P010_10LE, on every backend.
 *
 * While the shift rounds to zero in every plane the element runs in
 * passthrough. dx and dy are controllable and follow each buffer's stream
 * time, so a control source can pan the picture smoothly.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=I420,width=640,height=480 ! daedalusmc dx=10.25 dy=-3.5 ! videoconvert ! autovideosink
 * ]| Moves the picture 10.25 samples left and 3.5 samples down.
 * |[
 * gst-launch-1.0 filesrc location=in.mkv ! decodebin ! videoconvert ! daedalusmc dx=0.5 filter=sharp ! videoconvert ! autovideosink
 * ]| A half-sample shift with the sharp filter bank.
 */

#include "gstdaedalusmc.h"

#include "gstdaedaluselements.h"

#include "daedalus/frame_jobs.h"
#include "daedalus/mc.h"

GST_DEBUG_CATEGORY_STATIC (gst_daedalus_mc_debug);
#define GST_CAT_DEFAULT gst_daedalus_mc_debug

enum
{
  PROP_0,
  PROP_DX,
  PROP_DY,
  PROP_FILTER,
};

typedef enum
{
  GST_DAEDALUS_MC_FILTER_REGULAR,
  GST_DAEDALUS_MC_FILTER_SHARP,
  GST_DAEDALUS_MC_FILTER_SMOOTH,
  GST_DAEDALUS_MC_FILTER_BILINEAR,
} GstDaedalusMcFilter;

/* The library's defaults, so that the element and docs/spec.md agree. */
static constexpr daedalus::McParams kDefaults {};
#define DEFAULT_PROP_DX kDefaults.dx
#define DEFAULT_PROP_DY kDefaults.dy
#define DEFAULT_PROP_FILTER GST_DAEDALUS_MC_FILTER_REGULAR
static_assert (kDefaults.filter == daedalus::McFilter::Regular);

/* The GEnum values are the library's, so the two convert by a cast. */
static_assert (
    GST_DAEDALUS_MC_FILTER_REGULAR == int (daedalus::McFilter::Regular));
static_assert (GST_DAEDALUS_MC_FILTER_SHARP == int (daedalus::McFilter::Sharp));
static_assert (
    GST_DAEDALUS_MC_FILTER_SMOOTH == int (daedalus::McFilter::Smooth));
static_assert (
    GST_DAEDALUS_MC_FILTER_BILINEAR == int (daedalus::McFilter::Bilinear));

struct _GstDaedalusMc
{
  GstDaedalusFilter parent;

  daedalus::McParams params; /* object lock */
};

#define GST_TYPE_DAEDALUS_MC_FILTER (gst_daedalus_mc_filter_get_type ())
static GType
gst_daedalus_mc_filter_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_DAEDALUS_MC_FILTER_REGULAR, "VP9 regular 8-tap", "regular"},
      {GST_DAEDALUS_MC_FILTER_SHARP, "VP9 sharp 8-tap", "sharp"},
      {GST_DAEDALUS_MC_FILTER_SMOOTH, "VP9 smooth 8-tap", "smooth"},
      {GST_DAEDALUS_MC_FILTER_BILINEAR, "Bilinear", "bilinear"},
      {0, nullptr, nullptr},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstDaedalusMcFilter", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

G_DEFINE_TYPE (GstDaedalusMc, gst_daedalus_mc, GST_TYPE_DAEDALUS_FILTER);
GST_ELEMENT_REGISTER_DEFINE (daedalusmc, "daedalusmc", GST_RANK_NONE,
    GST_TYPE_DAEDALUS_MC);

static void gst_daedalus_mc_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec);
static void gst_daedalus_mc_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec);
static gboolean gst_daedalus_mc_is_noop (GstDaedalusFilter *filter,
    const GstVideoInfo *info);
static daedalus::FrameJob gst_daedalus_mc_make_job (GstDaedalusFilter *filter);
static GstFlowReturn gst_daedalus_mc_transform_frame (GstVideoFilter *vfilter,
    GstVideoFrame *in_frame, GstVideoFrame *out_frame);

static void
gst_daedalus_mc_class_init (GstDaedalusMcClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstVideoFilterClass *vfilter_class = GST_VIDEO_FILTER_CLASS (klass);
  GstDaedalusFilterClass *filter_class = GST_DAEDALUS_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_daedalus_mc_debug, "daedalusmc", 0,
      "VP9 sub-pixel translation");

  gobject_class->set_property = gst_daedalus_mc_set_property;
  gobject_class->get_property = gst_daedalus_mc_get_property;

  /* A shift mixes the rows of both fields: progressive video only
   * (docs/spec.md, "Interlaced video"). */
  gst_daedalus_filter_class_set_progressive_only (filter_class);

  g_object_class_install_property (gobject_class, PROP_DX,
      g_param_spec_double ("dx", "Horizontal shift",
          "Horizontal shift in luma samples: out(x, y) = in(x + dx, y + dy), "
          "so positive moves the picture left; rounded to 1/16 of a sample "
          "of each plane",
          -daedalus::kMcMaxShift, daedalus::kMcMaxShift, DEFAULT_PROP_DX,
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING)));
  g_object_class_install_property (gobject_class, PROP_DY,
      g_param_spec_double ("dy", "Vertical shift",
          "Vertical shift in luma samples: out(x, y) = in(x + dx, y + dy), "
          "so positive moves the picture up; rounded to 1/16 of a sample of "
          "each plane",
          -daedalus::kMcMaxShift, daedalus::kMcMaxShift, DEFAULT_PROP_DY,
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING)));
  g_object_class_install_property (gobject_class, PROP_FILTER,
      g_param_spec_enum ("filter", "Filter",
          "Interpolation filter for fractional shifts: the VP9 8-tap banks "
          "(sharp keeps the most detail, smooth the least) or bilinear",
          GST_TYPE_DAEDALUS_MC_FILTER, DEFAULT_PROP_FILTER,
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_MUTABLE_PLAYING)));

  gst_element_class_set_static_metadata (element_class,
      "Daedalus VP9 sub-pixel shift", "Filter/Effect/Video",
      "Translates the picture by a fractional number of samples with the "
      "VP9 motion compensation interpolation filters",
      "The daedalus authors");

  vfilter_class->transform_frame =
      GST_DEBUG_FUNCPTR (gst_daedalus_mc_transform_frame);
  filter_class->is_noop = GST_DEBUG_FUNCPTR (gst_daedalus_mc_is_noop);
  filter_class->make_job = GST_DEBUG_FUNCPTR (gst_daedalus_mc_make_job);
  filter_class->debug_category = gst_daedalus_mc_debug;

  gst_type_mark_as_plugin_api (GST_TYPE_DAEDALUS_MC_FILTER,
      (GstPluginAPIFlags) 0);
}

static void
gst_daedalus_mc_init (GstDaedalusMc *self)
{
  self->params = kDefaults;
}

static void
gst_daedalus_mc_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstDaedalusMc *self = GST_DAEDALUS_MC (object);
  GstDaedalusObjectLock lock (self);

  switch (prop_id) {
    case PROP_DX:
      self->params.dx = g_value_get_double (value);
      break;
    case PROP_DY:
      self->params.dy = g_value_get_double (value);
      break;
    case PROP_FILTER:
      self->params.filter = (daedalus::McFilter) g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_daedalus_mc_get_property (GObject *object, guint prop_id, GValue *value,
    GParamSpec *pspec)
{
  GstDaedalusMc *self = GST_DAEDALUS_MC (object);
  GstDaedalusObjectLock lock (self);

  switch (prop_id) {
    case PROP_DX:
      g_value_set_double (value, self->params.dx);
      break;
    case PROP_DY:
      g_value_set_double (value, self->params.dy);
      break;
    case PROP_FILTER:
      g_value_set_enum (value, (gint) self->params.filter);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static daedalus::McParams
get_params (GstDaedalusMc *self)
{
  GstDaedalusObjectLock lock (self);
  return self->params;
}

static gboolean
gst_daedalus_mc_is_noop (GstDaedalusFilter *filter, const GstVideoInfo *)
{
  return daedalus::mc_is_noop (get_params (GST_DAEDALUS_MC (filter)));
}

static daedalus::FrameJob
gst_daedalus_mc_make_job (GstDaedalusFilter *filter)
{
  return daedalus::mc_job (get_params (GST_DAEDALUS_MC (filter)));
}

static GstFlowReturn
gst_daedalus_mc_transform_frame (GstVideoFilter *vfilter,
    GstVideoFrame *in_frame, GstVideoFrame *out_frame)
{
  return gst_daedalus_filter_run (GST_DAEDALUS_FILTER (vfilter),
      gst_daedalus_frame_view (out_frame), gst_daedalus_frame_view (in_frame));
}
