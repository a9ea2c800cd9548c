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
 * SECTION:element-daedalusdeblock
 * @title: daedalusdeblock
 *
 * Removes blocking artefacts with an in-loop deblocking filter applied as a
 * post-process: the edges of a regular grid, every
 * #GstDaedalusDeblock:block-size samples of each plane, are filtered,
 * vertical edges first, then horizontal ones. #GstDaedalusDeblock:mode
 * chooses the filter:
 *
 * * `h264` (the default): the H.264 filter (ITU-T H.264 clause 8.7.2), the
 *   way a decoder filters content coded at quantiser #GstDaedalusDeblock:qp
 *   with boundary strength #GstDaedalusDeblock:bs. Luma and the chroma of
 *   4:4:4 formats use the luma filter, subsampled chroma the two-sample
 *   chroma filter.
 * * `vp9`: the VP9 loop filter at #GstDaedalusDeblock:filter-level and
 *   #GstDaedalusDeblock:sharpness, on every plane with the filter width
 *   #GstDaedalusDeblock:block-size: on flat lines it smooths 7 (width 8) or
 *   15 (width 16) samples across an edge, elsewhere 2 to 4.
 * * `dct`: re-quantisation in the DCT domain (the family of FFmpeg's spp):
 *   every 8x8 block of #GstDaedalusDeblock:shifts shifted grids is
 *   transformed, its AC coefficients under the quantiser step of
 *   #GstDaedalusDeblock:qp are zeroed, the block is rebuilt with the VP9
 *   inverse DCT, and each sample becomes the mean of its rebuilt values.
 *   It removes ringing as well as blocking, at a higher cost.
 *
 * Each mode ignores the other's properties (qp, alpha-offset, beta-offset,
 * chroma-qp-offset and bs are h264's; filter-level and sharpness vp9's;
 * dct uses qp, chroma-qp-offset and shifts).
 *
 * By default (#GstDaedalusDeblock:auto-strength) the element measures the
 * blocking and the coder's quantiser in the stream and sets every other
 * filter property itself: clean video passes through, blocky video is
 * filtered on the grid it finds (mode=dct where the quantiser shows, else
 * mode=h264); the properties read back what the last frame used, and a
 * daedaluscdef further down takes the same estimate. Setting a filter
 * property by hand turns that off.
 *
 * It takes the 8-bit formats and I420_10LE, I422_10LE, Y444_10LE and
 * P010_10LE, in every mode on every backend.
 *
 * The filter works in place. While the settings cannot change any sample
 * (h264: alpha or beta is 0 in every plane, e.g. qp below 16 with no
 * offsets; vp9: filter-level 0; dct: qp below 16 in every plane) the
 * element runs in passthrough. The
 * strength properties are controllable and follow each buffer's stream
 * time.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=in.mkv ! decodebin ! videoconvert ! daedalusdeblock qp=36 ! videoconvert ! autovideosink
 * ]| Deblocks a decoded file as if it had been coded at QP 36.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=NV12,width=1280,height=720 ! daedalusdeblock qp=40 bs=4 block-size=16 ! videoconvert ! autovideosink
 * ]| The strong (intra) filter on a 16-sample grid.
 * |[
 * gst-launch-1.0 filesrc location=in.avi ! decodebin ! videoconvert ! daedalusdeblock mode=vp9 filter-level=32 ! videoconvert ! autovideosink
 * ]| The VP9 loop filter, 8 samples wide, on heavily compressed MPEG-4.
 * |[
 * gst-launch-1.0 filesrc location=in.avi ! decodebin ! videoconvert ! daedalusdeblock mode=dct qp=34 shifts=8 ! videoconvert ! autovideosink
 * ]| DCT-domain deblocking and de-ringing over 8 shifted grids.
 */

#include "gstdaedalusdeblock.h"

#include "gstdaedaluselements.h"

#include "daedalus/auto_strength.h"
#include "daedalus/deblock.h"
#include "daedalus/frame_jobs.h"

GST_DEBUG_CATEGORY_STATIC (gst_daedalus_deblock_debug);
#define GST_CAT_DEFAULT gst_daedalus_deblock_debug

enum
{
  PROP_0,
  PROP_QP,
  PROP_ALPHA_OFFSET,
  PROP_BETA_OFFSET,
  PROP_CHROMA_QP_OFFSET,
  PROP_BS,
  PROP_BLOCK_SIZE,
  PROP_GRID_X,
  PROP_GRID_Y,
  PROP_AUTO_STRENGTH,
  PROP_MODE,
  PROP_FILTER_LEVEL,
  PROP_SHARPNESS,
  PROP_SHIFTS,
};

typedef enum
{
  GST_DAEDALUS_DEBLOCK_BLOCK_SIZE_4 = 4,
  GST_DAEDALUS_DEBLOCK_BLOCK_SIZE_8 = 8,
  GST_DAEDALUS_DEBLOCK_BLOCK_SIZE_16 = 16,
} GstDaedalusDeblockBlockSize;

typedef enum
{
  GST_DAEDALUS_DEBLOCK_SHIFTS_1 = 1,
  GST_DAEDALUS_DEBLOCK_SHIFTS_2 = 2,
  GST_DAEDALUS_DEBLOCK_SHIFTS_4 = 4,
  GST_DAEDALUS_DEBLOCK_SHIFTS_8 = 8,
  GST_DAEDALUS_DEBLOCK_SHIFTS_16 = 16,
  GST_DAEDALUS_DEBLOCK_SHIFTS_32 = 32,
  GST_DAEDALUS_DEBLOCK_SHIFTS_64 = 64,
} GstDaedalusDeblockShifts;

/* The library's defaults, so that the element and docs/spec.md agree. */
static constexpr daedalus::DeblockParams kDefaults {};
#define DEFAULT_PROP_QP kDefaults.qp
#define DEFAULT_PROP_ALPHA_OFFSET kDefaults.alpha_offset
#define DEFAULT_PROP_BETA_OFFSET kDefaults.beta_offset
#define DEFAULT_PROP_CHROMA_QP_OFFSET kDefaults.chroma_qp_offset
#define DEFAULT_PROP_BS kDefaults.bs
#define DEFAULT_PROP_BLOCK_SIZE GST_DAEDALUS_DEBLOCK_BLOCK_SIZE_8
static_assert (DEFAULT_PROP_BLOCK_SIZE == kDefaults.block_size);
#define DEFAULT_PROP_GRID_X kDefaults.grid_x
#define DEFAULT_PROP_GRID_Y kDefaults.grid_y
#define DEFAULT_PROP_MODE daedalus::DeblockMode::H264
static_assert (DEFAULT_PROP_MODE == kDefaults.mode);
#define DEFAULT_PROP_FILTER_LEVEL kDefaults.filter_level
#define DEFAULT_PROP_SHARPNESS kDefaults.sharpness
#define DEFAULT_PROP_SHIFTS GST_DAEDALUS_DEBLOCK_SHIFTS_4
static_assert (DEFAULT_PROP_SHIFTS == kDefaults.shifts);

#define CONTROLLABLE_PARAM_FLAGS \
  ((GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
      GST_PARAM_CONTROLLABLE | GST_PARAM_MUTABLE_PLAYING))

struct _GstDaedalusDeblock
{
  GstDaedalusFilter parent;

  /* Object lock. The settings in use are `applied` while auto_strength,
   * else `params` (the properties as set). */
  daedalus::DeblockParams params;
  daedalus::DeblockParams applied;
  gboolean auto_strength;
};

#define GST_TYPE_DAEDALUS_DEBLOCK_BLOCK_SIZE \
  (gst_daedalus_deblock_block_size_get_type ())
static GType
gst_daedalus_deblock_block_size_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_DAEDALUS_DEBLOCK_BLOCK_SIZE_4, "4 samples", "4"},
      {GST_DAEDALUS_DEBLOCK_BLOCK_SIZE_8, "8 samples", "8"},
      {GST_DAEDALUS_DEBLOCK_BLOCK_SIZE_16, "16 samples", "16"},
      {0, nullptr, nullptr},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstDaedalusDeblockBlockSize", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define GST_TYPE_DAEDALUS_DEBLOCK_SHIFTS \
  (gst_daedalus_deblock_shifts_get_type ())
static GType
gst_daedalus_deblock_shifts_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_DAEDALUS_DEBLOCK_SHIFTS_1, "1 grid", "1"},
      {GST_DAEDALUS_DEBLOCK_SHIFTS_2, "2 grids", "2"},
      {GST_DAEDALUS_DEBLOCK_SHIFTS_4, "4 grids", "4"},
      {GST_DAEDALUS_DEBLOCK_SHIFTS_8, "8 grids", "8"},
      {GST_DAEDALUS_DEBLOCK_SHIFTS_16, "16 grids", "16"},
      {GST_DAEDALUS_DEBLOCK_SHIFTS_32, "32 grids", "32"},
      {GST_DAEDALUS_DEBLOCK_SHIFTS_64, "64 grids (every offset)", "64"},
      {0, nullptr, nullptr},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstDaedalusDeblockShifts", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define GST_TYPE_DAEDALUS_DEBLOCK_MODE (gst_daedalus_deblock_mode_get_type ())
static GType
gst_daedalus_deblock_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
      {int (daedalus::DeblockMode::H264), "H.264 deblocking filter", "h264"},
      {int (daedalus::DeblockMode::Vp9), "VP9 loop filter", "vp9"},
      {int (daedalus::DeblockMode::Dct),
          "DCT-domain re-quantisation at shifts of the 8x8 grid", "dct"},
      {0, nullptr, nullptr},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstDaedalusDeblockMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

G_DEFINE_TYPE (GstDaedalusDeblock, gst_daedalus_deblock,
    GST_TYPE_DAEDALUS_FILTER);
GST_ELEMENT_REGISTER_DEFINE (daedalusdeblock, "daedalusdeblock", GST_RANK_NONE,
    GST_TYPE_DAEDALUS_DEBLOCK);

static void gst_daedalus_deblock_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec);
static void gst_daedalus_deblock_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec);
static gboolean gst_daedalus_deblock_is_noop (GstDaedalusFilter *filter,
    const GstVideoInfo *info);
static daedalus::FrameJob gst_daedalus_deblock_make_job (
    GstDaedalusFilter *filter);
static GstFlowReturn
gst_daedalus_deblock_transform_frame_ip (GstVideoFilter *vfilter,
    GstVideoFrame *frame);
static gboolean gst_daedalus_deblock_auto_strength (GstDaedalusFilter *filter);
static void gst_daedalus_deblock_apply_estimate (GstDaedalusFilter *filter,
    const daedalus::DamageEstimate *estimate);

static void
gst_daedalus_deblock_class_init (GstDaedalusDeblockClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstVideoFilterClass *vfilter_class = GST_VIDEO_FILTER_CLASS (klass);
  GstDaedalusFilterClass *filter_class = GST_DAEDALUS_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_daedalus_deblock_debug, "daedalusdeblock", 0,
      "H.264, VP9 and DCT-domain deblocking filters");

  gobject_class->set_property = gst_daedalus_deblock_set_property;
  gobject_class->get_property = gst_daedalus_deblock_get_property;

  g_object_class_install_property (gobject_class, PROP_QP,
      g_param_spec_int ("qp", "QP",
          "Quantiser the content was coded with (H.264 QP); higher filters "
          "harder, below 16 (with no offsets) nothing is filtered (mode=h264; "
          "mode=dct: its quantiser step is the threshold; ignored in mode=vp9)",
          0, 51, DEFAULT_PROP_QP, CONTROLLABLE_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_ALPHA_OFFSET,
      g_param_spec_int ("alpha-offset", "Alpha offset",
          "Added to qp to look up alpha and tc0 (H.264 FilterOffsetA); "
          "positive filters steeper edges and changes samples more (mode=h264; "
          "ignored in mode=vp9 and dct)",
          -12, 12, DEFAULT_PROP_ALPHA_OFFSET, CONTROLLABLE_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_BETA_OFFSET,
      g_param_spec_int ("beta-offset", "Beta offset",
          "Added to qp to look up beta (H.264 FilterOffsetB); positive "
          "filters edges with more texture beside them (mode=h264; ignored "
          "in mode=vp9 and dct)",
          -12, 12, DEFAULT_PROP_BETA_OFFSET, CONTROLLABLE_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_CHROMA_QP_OFFSET,
      g_param_spec_int ("chroma-qp-offset", "Chroma QP offset",
          "Added to qp for the chroma planes (H.264 chroma_qp_index_offset, "
          "-12..12, and lower); positive filters chroma harder, -51 leaves "
          "chroma unchanged at every qp (mode=h264 and dct; ignored in "
          "mode=vp9)",
          daedalus::kChromaQpOffsetMin, daedalus::kChromaQpOffsetMax,
          DEFAULT_PROP_CHROMA_QP_OFFSET, CONTROLLABLE_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_BS,
      g_param_spec_int ("bs", "Boundary strength",
          "Boundary strength of every edge: 1-3 the normal filter, clipped "
          "harder the lower it is; 4 the strong (intra) filter (mode=h264; "
          "ignored in mode=vp9 and dct)",
          1, 4, DEFAULT_PROP_BS, CONTROLLABLE_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_BLOCK_SIZE,
      g_param_spec_enum ("block-size", "Block size",
          "Distance between filtered edges, in samples of each plane "
          "(the block size the content was coded with); in mode=vp9 also "
          "the filter width; mode=dct always uses 8",
          GST_TYPE_DAEDALUS_DEBLOCK_BLOCK_SIZE, DEFAULT_PROP_BLOCK_SIZE,
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_MUTABLE_PLAYING)));
  g_object_class_install_property (gobject_class, PROP_GRID_X,
      g_param_spec_int ("grid-x", "Grid origin x",
          "Column of the block grid's origin, in luma samples: where a crop "
          "moved the coded blocks (each plane starts filtering at its share "
          "of it, modulo the block size)",
          0, 15, DEFAULT_PROP_GRID_X, CONTROLLABLE_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_GRID_Y,
      g_param_spec_int ("grid-y", "Grid origin y",
          "Row of the block grid's origin, in luma samples", 0, 15,
          DEFAULT_PROP_GRID_Y, CONTROLLABLE_PARAM_FLAGS));

  /**
   * GstDaedalusDeblock:auto-strength:
   *
   * Sets every other property of the filter from the damage the element
   * measures in the stream (docs/spec.md, "Damage estimate and auto
   * strength"): clean input passes through, blocky input is deblocked on
   * the grid found, with mode=dct at a qp that follows the quantiser where
   * the estimate finds one, else mode=h264 at a qp that follows the
   * blocking. Setting any of the
   * filter's other properties turns it off; while on, they read back the
   * values the last frame used (before the first frame: the strongest
   * automatic setting). Each change of the estimate is posted as an
   * element message "daedalus-damage".
   */
  gst_daedalus_filter_install_auto_strength (gobject_class, PROP_AUTO_STRENGTH);

  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "The filter: h264 (qp, alpha-offset, beta-offset, "
          "chroma-qp-offset, bs), vp9 (filter-level, sharpness) or dct "
          "(qp, chroma-qp-offset, shifts)",
          GST_TYPE_DAEDALUS_DEBLOCK_MODE, int (DEFAULT_PROP_MODE),
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_MUTABLE_PLAYING)));
  g_object_class_install_property (gobject_class, PROP_FILTER_LEVEL,
      g_param_spec_int ("filter-level", "Filter level",
          "VP9 filter_level: higher filters steeper edges with more texture "
          "beside them; 0 filters nothing (mode=vp9; ignored in mode=h264)",
          0, 63, DEFAULT_PROP_FILTER_LEVEL, CONTROLLABLE_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_SHARPNESS,
      g_param_spec_int ("sharpness", "Sharpness",
          "VP9 sharpness_level: higher leaves more texture beside edges "
          "unfiltered (mode=vp9; ignored in mode=h264)",
          0, 7, DEFAULT_PROP_SHARPNESS, CONTROLLABLE_PARAM_FLAGS));
  g_object_class_install_property (gobject_class, PROP_SHIFTS,
      g_param_spec_enum ("shifts", "Shifts",
          "How many shifted 8x8 grids are averaged: more removes more "
          "blocking and ringing and costs proportionally more (mode=dct; "
          "ignored in mode=h264 and vp9)",
          GST_TYPE_DAEDALUS_DEBLOCK_SHIFTS, DEFAULT_PROP_SHIFTS,
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_MUTABLE_PLAYING)));

  gst_element_class_set_static_metadata (element_class,
      "Daedalus deblocking filter", "Filter/Effect/Video",
      "Smooths the edges of a regular block grid with the H.264 in-loop "
      "deblocking filter, the VP9 loop filter or re-quantisation in the DCT "
      "domain, at a user-given strength",
      "The daedalus authors");

  vfilter_class->transform_frame_ip =
      GST_DEBUG_FUNCPTR (gst_daedalus_deblock_transform_frame_ip);
  filter_class->is_noop = GST_DEBUG_FUNCPTR (gst_daedalus_deblock_is_noop);
  filter_class->make_job = GST_DEBUG_FUNCPTR (gst_daedalus_deblock_make_job);
  filter_class->debug_category = gst_daedalus_deblock_debug;
  filter_class->auto_strength =
      GST_DEBUG_FUNCPTR (gst_daedalus_deblock_auto_strength);
  filter_class->apply_estimate =
      GST_DEBUG_FUNCPTR (gst_daedalus_deblock_apply_estimate);
  filter_class->shares_estimate = TRUE;

  gst_type_mark_as_plugin_api (GST_TYPE_DAEDALUS_DEBLOCK_BLOCK_SIZE,
      (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_DAEDALUS_DEBLOCK_MODE,
      (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_DAEDALUS_DEBLOCK_SHIFTS,
      (GstPluginAPIFlags) 0);
}

static void
gst_daedalus_deblock_init (GstDaedalusDeblock *self)
{
  self->params = kDefaults;
  self->auto_strength = TRUE;
  gst_daedalus_deblock_apply_estimate (GST_DAEDALUS_FILTER (self), nullptr);
}

static void
gst_daedalus_deblock_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstDaedalusDeblock *self = GST_DAEDALUS_DEBLOCK (object);
  GstDaedalusObjectLock lock (self);
  daedalus::DeblockParams &p = self->params;

  switch (prop_id) {
    case PROP_AUTO_STRENGTH:
      if (g_value_get_boolean (value) && !self->auto_strength)
        gst_daedalus_filter_restart_estimate_locked (
            GST_DAEDALUS_FILTER (self));
      self->auto_strength = g_value_get_boolean (value);
      return;
    case PROP_QP:
      p.qp = g_value_get_int (value);
      break;
    case PROP_ALPHA_OFFSET:
      p.alpha_offset = g_value_get_int (value);
      break;
    case PROP_BETA_OFFSET:
      p.beta_offset = g_value_get_int (value);
      break;
    case PROP_CHROMA_QP_OFFSET:
      p.chroma_qp_offset = g_value_get_int (value);
      break;
    case PROP_BS:
      p.bs = g_value_get_int (value);
      break;
    case PROP_BLOCK_SIZE:
      p.block_size = g_value_get_enum (value);
      break;
    case PROP_GRID_X:
      p.grid_x = g_value_get_int (value);
      break;
    case PROP_GRID_Y:
      p.grid_y = g_value_get_int (value);
      break;
    case PROP_MODE:
      p.mode = daedalus::DeblockMode (g_value_get_enum (value));
      break;
    case PROP_FILTER_LEVEL:
      p.filter_level = g_value_get_int (value);
      break;
    case PROP_SHARPNESS:
      p.sharpness = g_value_get_int (value);
      break;
    case PROP_SHIFTS:
      p.shifts = g_value_get_enum (value);
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
gst_daedalus_deblock_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstDaedalusDeblock *self = GST_DAEDALUS_DEBLOCK (object);
  GstDaedalusObjectLock lock (self);
  const daedalus::DeblockParams &p =
      self->auto_strength ? self->applied : self->params;

  switch (prop_id) {
    case PROP_AUTO_STRENGTH:
      g_value_set_boolean (value, self->auto_strength);
      break;
    case PROP_QP:
      g_value_set_int (value, p.qp);
      break;
    case PROP_ALPHA_OFFSET:
      g_value_set_int (value, p.alpha_offset);
      break;
    case PROP_BETA_OFFSET:
      g_value_set_int (value, p.beta_offset);
      break;
    case PROP_CHROMA_QP_OFFSET:
      g_value_set_int (value, p.chroma_qp_offset);
      break;
    case PROP_BS:
      g_value_set_int (value, p.bs);
      break;
    case PROP_BLOCK_SIZE:
      g_value_set_enum (value, p.block_size);
      break;
    case PROP_GRID_X:
      g_value_set_int (value, p.grid_x);
      break;
    case PROP_GRID_Y:
      g_value_set_int (value, p.grid_y);
      break;
    case PROP_MODE:
      g_value_set_enum (value, int (p.mode));
      break;
    case PROP_FILTER_LEVEL:
      g_value_set_int (value, p.filter_level);
      break;
    case PROP_SHARPNESS:
      g_value_set_int (value, p.sharpness);
      break;
    case PROP_SHIFTS:
      g_value_set_enum (value, p.shifts);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static daedalus::DeblockParams
get_params (GstDaedalusDeblock *self)
{
  GstDaedalusObjectLock lock (self);
  return self->auto_strength ? self->applied : self->params;
}

static gboolean
gst_daedalus_deblock_auto_strength (GstDaedalusFilter *filter)
{
  GstDaedalusObjectLock lock (filter);
  return GST_DAEDALUS_DEBLOCK (filter)->auto_strength;
}

static void
gst_daedalus_deblock_apply_estimate (GstDaedalusFilter *filter,
    const daedalus::DamageEstimate *estimate)
{
  const daedalus::DeblockParams p = daedalus::auto_deblock_params (
      estimate ? *estimate : daedalus::strongest_damage ());
  GstDaedalusObjectLock lock (filter);
  GST_DAEDALUS_DEBLOCK (filter)->applied = p;
}

static gboolean
gst_daedalus_deblock_is_noop (GstDaedalusFilter *filter,
    const GstVideoInfo *info)
{
  return daedalus::deblock_is_noop (get_params (GST_DAEDALUS_DEBLOCK (filter)),
      GST_VIDEO_INFO_N_COMPONENTS (info) >= 3);
}

static daedalus::FrameJob
gst_daedalus_deblock_make_job (GstDaedalusFilter *filter)
{
  return daedalus::deblock_job (get_params (GST_DAEDALUS_DEBLOCK (filter)));
}

static GstFlowReturn
gst_daedalus_deblock_transform_frame_ip (GstVideoFilter *vfilter,
    GstVideoFrame *frame)
{
  const daedalus::Frame view = gst_daedalus_frame_view (frame);

  return gst_daedalus_filter_run (GST_DAEDALUS_FILTER (vfilter), view, view);
}
