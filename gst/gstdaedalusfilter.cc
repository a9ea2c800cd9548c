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
 * SECTION:gstdaedalusfilter
 * @title: GstDaedalusFilter
 * @short_description: Base class of the daedalus video filters
 *
 * Accepts the 8-bit planar and semi-planar YUV formats and GRAY8, and the
 * 10-bit I420_10LE, I422_10LE, Y444_10LE and P010_10LE, at any size,
 * picks the kernel backend when caps are negotiated (#GstDaedalusFilter:backend),
 * syncs controlled properties to each buffer's stream time and runs in
 * passthrough while the settings are a no-op.
 *
 * With backend=auto (the default) the element measures, when caps are
 * negotiated, how long its frame call takes on each backend available (a
 * trial on a synthetic frame of the negotiated format and size, bounded by
 * #GstDaedalusFilter:calibration-budget), takes the fastest and remembers
 * the figures in $XDG_CACHE_HOME/daedalus/backends.ini for the next run on
 * this machine; several elements of a process weigh where the others went.
 * `DAEDALUS_BACKEND=scalar|cpu|gpu|hybrid|auto` in the environment overrides
 * the default for every element; a #GstDaedalusFilter:backend set on the
 * element overrides the variable. A gpu or hybrid backend that auto chose
 * and that fails on a frame is replaced by the cpu backend, with a warning,
 * and the frame is redone; auto keeps to the CPU at later negotiations of
 * the element (of every element in the process, when the GPU device was
 * lost), and the cache is left as it was.
 *
 * On the gpu backend the element proposes upstream a buffer pool whose
 * frames live in Vulkan memory the GPU reads and writes in place, and takes
 * its output buffers from such a pool (downstream's, when that is another
 * daedalus element on the gpu backend): a frame from it is filtered with no
 * copy (#GstDaedalusFilter:zero-copy-frames counts those), a frame in other
 * memory is copied in once. The other backends never propose it: on the
 * Raspberry Pi 5 the CPU reads that memory uncached.
 */

#include "gstdaedalusfilter.h"

#include <memory>
#include <optional>
#include <string>

#include "daedalus/backend_capability.h"
#include "daedalus/backend_fallback.h"
#include "daedalus/backend_gpu.h"
#include "daedalus/thread_pool.h"
#include "gstdaedalusbackendchoice.h"
#include "gstdaedalusdamagemeta.h"
#include "gstdaedalusdamagetracker.h"
#include "gstdaedalusvkallocator.h"
#include "gstdaedalusvkbufferpool.h"

GST_DEBUG_CATEGORY_STATIC (gst_daedalus_filter_debug);
#define GST_CAT_DEFAULT gst_daedalus_filter_debug

enum
{
  PROP_0,
  PROP_BACKEND,
  PROP_ACTIVE_BACKEND,
  PROP_ZERO_COPY_FRAMES,
  PROP_N_THREADS,
  PROP_CALIBRATION_BUDGET,
  PROP_DECIDED_BY,
};

#define DEFAULT_PROP_BACKEND GST_DAEDALUS_BACKEND_AUTO
#define DEFAULT_PROP_N_THREADS 0
#define DEFAULT_PROP_CALIBRATION_BUDGET 200

/* docs/spec.md: the 8-bit formats, then "High bit depth". */
#define DAEDALUS_FORMATS \
  "{ I420, YV12, Y42B, Y444, NV12, NV21, GRAY8, " \
  "I420_10LE, I422_10LE, Y444_10LE, P010_10LE }"
/* Interlaced video (docs/spec.md, "Interlaced video"): frames of two
 * interleaved fields (every frame, or those a mixed stream flags), and
 * fields one per buffer (alternate, which carries its caps feature). */
#define DAEDALUS_VIDEO_CAPS \
  GST_VIDEO_CAPS_MAKE (DAEDALUS_FORMATS) \
  ", interlace-mode = (string) { progressive, interleaved, mixed " \
  "}; " GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_FORMAT_INTERLACED, \
      DAEDALUS_FORMATS) ", interlace-mode = (string) alternate"
#define DAEDALUS_PROGRESSIVE_CAPS \
  GST_VIDEO_CAPS_MAKE (DAEDALUS_FORMATS) \
  ", interlace-mode = (string) progressive"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (DAEDALUS_VIDEO_CAPS));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (DAEDALUS_VIDEO_CAPS));

static GstStaticPadTemplate progressive_sink_template =
    GST_STATIC_PAD_TEMPLATE ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
        GST_STATIC_CAPS (DAEDALUS_PROGRESSIVE_CAPS));

static GstStaticPadTemplate progressive_src_template =
    GST_STATIC_PAD_TEMPLATE ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
        GST_STATIC_CAPS (DAEDALUS_PROGRESSIVE_CAPS));

GType
gst_daedalus_backend_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_DAEDALUS_BACKEND_AUTO,
          "The fastest on this machine, measured and cached", "auto"},
      {GST_DAEDALUS_BACKEND_SCALAR, "Scalar reference on the streaming thread",
          "scalar"},
      {GST_DAEDALUS_BACKEND_CPU, "SIMD kernels on all CPU cores", "cpu"},
      {GST_DAEDALUS_BACKEND_GPU, "Vulkan compute on the GPU", "gpu"},
      {GST_DAEDALUS_BACKEND_HYBRID,
          "Rows split between the CPU cores and the GPU", "hybrid"},
      {0, nullptr, nullptr},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstDaedalusBackend", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

namespace {

struct FilterState
{
  /* Guarded by the object lock. */
  GstDaedalusBackend setting = DEFAULT_PROP_BACKEND;
  bool setting_explicit = false;
  guint n_threads = DEFAULT_PROP_N_THREADS;
  guint calibration_budget = DEFAULT_PROP_CALIBRATION_BUDGET;
  std::optional<daedalus::BackendKind> active;
  GstDaedalusDecidedBy decided_by = GST_DAEDALUS_DECIDED_BY_NONE;
  guint64 zero_copy_frames = 0;

  /* Streaming thread (and stop, once streaming has stopped). */
  std::shared_ptr<daedalus::Backend> backend;
  /* Whether the buffer being processed holds two interleaved fields. */
  bool two_fields = false;
  /* What the backend was chosen for: a change means choosing again. */
  std::string chosen_for;
  /* A gpu or hybrid backend auto chose failed (daedalus::FallbackBackend
   * moved to the cpu): auto keeps to the CPU for the element's life. */
  bool gpu_failed = false;
  bool warned_no_gpu = false;
  /* On the gpu backend: the same backend, and the allocator of the buffer
   * pools (which share the backend: their buffers may outlive it here). */
  std::shared_ptr<daedalus::GpuBackend> gpu;
  GstAllocator *allocator = nullptr;
  /* Where its frames run, which auto weighs for the other elements. */
  daedalus::Placement placement;
  /* A failure posted already (the setting, or the settings' kernel at a
   * bit depth): every later caps event fails the same way, and one error
   * message says it. */
  std::optional<std::string> refused;
  /* Auto strength: the stream's damage estimate (streaming thread), and
   * a reset asked for from elsewhere (object lock). */
  GstDaedalusDamageTracker damage;
  bool damage_reset_requested = false;

  void drop_backend ()
  {
    gst_clear_object (&allocator);
    gpu.reset ();
    backend.reset ();
    chosen_for.clear ();
  }
};

struct GstDaedalusFilterPrivate
{
  FilterState *state;
};

} /* namespace */

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GstDaedalusFilter, gst_daedalus_filter,
    GST_TYPE_VIDEO_FILTER);

static FilterState &
get_state (GstDaedalusFilter *self)
{
  auto priv = static_cast<GstDaedalusFilterPrivate *> (
      gst_daedalus_filter_get_instance_private (self));
  return *priv->state;
}

static void gst_daedalus_filter_finalize (GObject *object);
static void gst_daedalus_filter_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec);
static void gst_daedalus_filter_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec);
static gboolean gst_daedalus_filter_start (GstBaseTransform *trans);
static gboolean gst_daedalus_filter_stop (GstBaseTransform *trans);
static gboolean gst_daedalus_filter_sink_event (GstBaseTransform *trans,
    GstEvent *event);
static gboolean gst_daedalus_filter_propose_allocation (GstBaseTransform *trans,
    GstQuery *decide_query, GstQuery *query);
static gboolean gst_daedalus_filter_decide_allocation (GstBaseTransform *trans,
    GstQuery *query);
static void gst_daedalus_filter_before_transform (GstBaseTransform *trans,
    GstBuffer *buffer);
static GstFlowReturn
gst_daedalus_filter_prepare_output_buffer (GstBaseTransform *trans,
    GstBuffer *input, GstBuffer **outbuf);
static GstFlowReturn gst_daedalus_filter_transform (GstBaseTransform *trans,
    GstBuffer *inbuf, GstBuffer *outbuf);
static GstFlowReturn gst_daedalus_filter_transform_ip (GstBaseTransform *trans,
    GstBuffer *buf);
static gboolean gst_daedalus_filter_set_info (GstVideoFilter *vfilter,
    GstCaps *incaps, GstVideoInfo *in_info, GstCaps *outcaps,
    GstVideoInfo *out_info);

static void
gst_daedalus_filter_class_init (GstDaedalusFilterClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *vfilter_class = GST_VIDEO_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_daedalus_filter_debug, "daedalusfilter", 0,
      "daedalus video filter base class");

  gobject_class->finalize = gst_daedalus_filter_finalize;
  gobject_class->set_property = gst_daedalus_filter_set_property;
  gobject_class->get_property = gst_daedalus_filter_get_property;

  /**
   * GstDaedalusFilter:backend:
   *
   * Which implementation runs the kernels. An explicit choice that is not
   * available in this build or on this machine fails negotiation with an
   * error that says why. Read when caps are negotiated.
   */
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Implementation that runs the kernels: auto picks the fastest "
          "available one, scalar is the reference; every backend gives the "
          "same output. Takes effect at the next caps negotiation",
          GST_TYPE_DAEDALUS_BACKEND, DEFAULT_PROP_BACKEND,
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_MUTABLE_READY)));

  /**
   * GstDaedalusFilter:active-backend:
   *
   * The nick of the backend in use ("scalar", "cpu", "gpu", "hybrid"), or
   * "none" before caps are negotiated and after the element stops.
   */
  g_object_class_install_property (gobject_class, PROP_ACTIVE_BACKEND,
      g_param_spec_string ("active-backend", "Active backend",
          "Backend in use since caps were negotiated (scalar, cpu, gpu or "
          "hybrid); "
          "\"none\" while not negotiated",
          "none", (GParamFlags) (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));

  /**
   * GstDaedalusFilter:zero-copy-frames:
   *
   * Frames the gpu backend filtered wholly in place: every plane it read and
   * wrote lay in Vulkan memory of its own device (the buffer pool this
   * element proposes upstream, its output pool), so nothing was copied.
   * Frames in other memory, another daedalus element's pool included (they
   * are copied in, and out again by an in-place element), and frames the GPU
   * had nothing to do on are not counted. Counted since the element last
   * started; 0 on the other backends.
   */
  g_object_class_install_property (gobject_class, PROP_ZERO_COPY_FRAMES,
      g_param_spec_uint64 ("zero-copy-frames", "Zero-copy frames",
          "Frames the gpu backend filtered wholly in place in its Vulkan "
          "memory, with no copy in or out: frames from the buffer pool this "
          "element proposes upstream on the gpu backend. Counted since the "
          "element started; 0 on other backends",
          0, G_MAXUINT64, 0,
          (GParamFlags) (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));

  /**
   * GstDaedalusFilter:n-threads:
   *
   * Threads the cpu backend (and the CPU's part of a hybrid frame) splits a
   * frame across; 0 for one per core. Elements with the same count share
   * one pool of threads. Read when caps are negotiated.
   */
  g_object_class_install_property (gobject_class, PROP_N_THREADS,
      g_param_spec_uint ("n-threads", "Threads",
          "Threads a frame is split across on the cpu and hybrid backends "
          "(0: one per core). Takes effect at the next caps negotiation",
          0, 256, DEFAULT_PROP_N_THREADS,
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_MUTABLE_READY)));

  /**
   * GstDaedalusFilter:calibration-budget:
   *
   * Milliseconds backend=auto may spend measuring the backends when caps
   * are negotiated and the cache has no figures for this machine, format,
   * size and setting. Each backend gets at least one timed frame, so a slow
   * one may overrun a tiny budget.
   */
  g_object_class_install_property (gobject_class, PROP_CALIBRATION_BUDGET,
      g_param_spec_uint ("calibration-budget", "Calibration budget",
          "Milliseconds backend=auto may spend timing the backends at caps "
          "negotiation when no cached figures fit (each backend gets at least "
          "one frame)",
          10, 10000, DEFAULT_PROP_CALIBRATION_BUDGET,
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_MUTABLE_READY)));

  /**
   * GstDaedalusFilter:decided-by:
   *
   * How the active backend was chosen: "property" (the backend property),
   * "environment" ($DAEDALUS_BACKEND), "only-choice" (auto with one backend
   * to try), "trial" (auto, measured at this negotiation), "cache" (auto,
   * measured in an earlier run), "fallback" (the cpu after the GPU failed),
   * or "none" while not negotiated.
   */
  g_object_class_install_property (gobject_class, PROP_DECIDED_BY,
      g_param_spec_string ("decided-by", "Decided by",
          "How active-backend was chosen: property, environment, only-choice, "
          "trial, cache, fallback; none while not negotiated",
          "none", (GParamFlags) (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  /* Every element inherits it: the spec says what each computes. */
  gst_element_class_add_static_metadata (element_class,
      GST_ELEMENT_METADATA_DOC_URI, DAEDALUS_DOC_URI);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_daedalus_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_daedalus_filter_stop);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_daedalus_filter_sink_event);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_daedalus_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_daedalus_filter_decide_allocation);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_daedalus_filter_before_transform);
  /* A buffer too small for its caps goes downstream as it came, with a
   * warning of ours rather than GstVideoFilter's; deblock's estimate goes
   * on the buffers it outputs. */
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_daedalus_filter_prepare_output_buffer);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_daedalus_filter_transform);
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_daedalus_filter_transform_ip);
  /* In passthrough the settings are a no-op: skip the in-place call too. */
  trans_class->transform_ip_on_passthrough = FALSE;
  vfilter_class->set_info = GST_DEBUG_FUNCPTR (gst_daedalus_filter_set_info);

  gst_type_mark_as_plugin_api (GST_TYPE_DAEDALUS_FILTER, (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_DAEDALUS_BACKEND,
      (GstPluginAPIFlags) 0);
}

static void
gst_daedalus_filter_init (GstDaedalusFilter *self)
{
  auto priv = static_cast<GstDaedalusFilterPrivate *> (
      gst_daedalus_filter_get_instance_private (self));
  priv->state = new FilterState;
}

static void
gst_daedalus_filter_finalize (GObject *object)
{
  auto priv = static_cast<GstDaedalusFilterPrivate *> (
      gst_daedalus_filter_get_instance_private (GST_DAEDALUS_FILTER (object)));
  priv->state->drop_backend ();
  delete priv->state;

  G_OBJECT_CLASS (gst_daedalus_filter_parent_class)->finalize (object);
}

static void
gst_daedalus_filter_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  FilterState &state = get_state (GST_DAEDALUS_FILTER (object));
  GstDaedalusObjectLock lock (object);

  switch (prop_id) {
    case PROP_BACKEND:
      state.setting = (GstDaedalusBackend) g_value_get_enum (value);
      state.setting_explicit = true;
      break;
    case PROP_N_THREADS:
      state.n_threads = g_value_get_uint (value);
      break;
    case PROP_CALIBRATION_BUDGET:
      state.calibration_budget = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_daedalus_filter_get_property (GObject *object, guint prop_id, GValue *value,
    GParamSpec *pspec)
{
  FilterState &state = get_state (GST_DAEDALUS_FILTER (object));
  GstDaedalusObjectLock lock (object);

  switch (prop_id) {
    case PROP_BACKEND:
      g_value_set_enum (value, state.setting);
      break;
    case PROP_ACTIVE_BACKEND:
      if (state.active) {
        g_value_set_string (value,
            std::string (daedalus::backend_name (*state.active)).c_str ());
      } else {
        g_value_set_string (value, "none");
      }
      break;
    case PROP_ZERO_COPY_FRAMES:
      g_value_set_uint64 (value, state.zero_copy_frames);
      break;
    case PROP_N_THREADS:
      g_value_set_uint (value, state.n_threads);
      break;
    case PROP_CALIBRATION_BUDGET:
      g_value_set_uint (value, state.calibration_budget);
      break;
    case PROP_DECIDED_BY:
      g_value_set_string (value,
          gst_daedalus_decided_by_name (state.decided_by));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
set_active (GstDaedalusFilter *self,
    std::optional<daedalus::BackendKind> active, GstDaedalusDecidedBy by)
{
  GstDaedalusObjectLock lock (self);
  get_state (self).active = active;
  get_state (self).decided_by = active ? by : GST_DAEDALUS_DECIDED_BY_NONE;
}

/* Starts the damage estimate over: the settings are the strongest auto
 * ones until the next frame is measured. */
static void
reset_estimate (GstDaedalusFilter *self)
{
  GstDaedalusFilterClass *klass = GST_DAEDALUS_FILTER_GET_CLASS (self);
  get_state (self).damage.reset ();
  if (klass->apply_estimate)
    klass->apply_estimate (self, nullptr);
}

static gboolean
gst_daedalus_filter_start (GstBaseTransform *trans)
{
  {
    GstDaedalusObjectLock lock (trans);
    get_state (GST_DAEDALUS_FILTER (trans)).zero_copy_frames = 0;
  }
  reset_estimate (GST_DAEDALUS_FILTER (trans));
  return TRUE;
}

static gboolean
gst_daedalus_filter_sink_event (GstBaseTransform *trans, GstEvent *event)
{
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    reset_estimate (GST_DAEDALUS_FILTER (trans));
  return GST_BASE_TRANSFORM_CLASS (gst_daedalus_filter_parent_class)
      ->sink_event (trans, event);
}

static gboolean
gst_daedalus_filter_stop (GstBaseTransform *trans)
{
  GstDaedalusFilter *self = GST_DAEDALUS_FILTER (trans);

  get_state (self).drop_backend ();
  get_state (self).refused.reset ();
  get_state (self).placement.clear ();
  set_active (self, std::nullopt, GST_DAEDALUS_DECIDED_BY_NONE);
  return TRUE;
}

/* Adopts @backend: the gpu one (also behind a fallback) brings the
 * allocator of its buffer pools. */
static void
adopt_backend (GstDaedalusFilter *self,
    std::shared_ptr<daedalus::Backend> backend, GstDaedalusDecidedBy by)
{
  FilterState &state = get_state (self);

  state.drop_backend ();
  state.backend = std::move (backend);
  auto fallback =
      std::dynamic_pointer_cast<daedalus::FallbackBackend> (state.backend);
  state.gpu = std::dynamic_pointer_cast<daedalus::GpuBackend> (
      fallback ? fallback->active () : state.backend);
  if (state.gpu)
    state.allocator = gst_daedalus_vk_allocator_new (state.gpu);
  set_active (self, state.backend->kind (), by);
  GST_INFO_OBJECT (self, "using the %s backend (decided by %s)",
      std::string (daedalus::backend_name (state.backend->kind ())).c_str (),
      gst_daedalus_decided_by_name (by));
}

/* The gpu or hybrid backend auto chose failed on a frame, which the cpu
 * backend now redoes (and every later frame): says so once, and remembers
 * the failure so that later negotiations choose the CPU too (for every
 * element, when the device was lost). Called inside the frame call. */
static void
fell_back (GstDaedalusFilter *self, const daedalus::FallbackNotice &notice)
{
  FilterState &state = get_state (self);
  const bool had_pool = state.allocator != nullptr;
  state.gpu_failed = true;
  if (notice.failure.is_gpu_lost ())
    gst_daedalus_note_gpu_lost ();
  gst_clear_object (&state.allocator);
  state.gpu.reset ();
  state.placement.clear ();
  set_active (self, notice.now, GST_DAEDALUS_DECIDED_BY_FALLBACK);

  const std::string failed (daedalus::backend_name (notice.failed));
  const std::string now (daedalus::backend_name (notice.now));
  GST_ELEMENT_WARNING (self, RESOURCE, FAILED,
      ("The GPU failed; the CPU runs this element from now on."),
      ("The %s backend failed on a frame (%s); the frame is redone on the "
       "%s backend.",
          failed.c_str (), notice.failure.message ().c_str (), now.c_str ()));
  GST_INFO_OBJECT (self, "using the %s backend (decided by %s)", now.c_str (),
      gst_daedalus_decided_by_name (GST_DAEDALUS_DECIDED_BY_FALLBACK));
  /* Buffers from the Vulkan pool stay valid; new ones come from ordinary
   * pools once both sides have asked again. */
  if (had_pool) {
    gst_base_transform_reconfigure_sink (GST_BASE_TRANSFORM (self));
    gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
  }
}

/* Posts a negotiation error with @message (transfer full), unless @what
 * was refused last time already; FALSE. */
static gboolean
refuse (GstDaedalusFilter *self, const std::string &what, gchar *message,
    const char *hint)
{
  FilterState &state = get_state (self);
  if (state.refused != what) {
    state.refused = what;
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", message), ("%s", hint));
  }
  g_free (message);
  return FALSE;
}

/* Makes sure a backend for the current setting, format, size and cost
 * exists; on failure posts an error naming the backend and the library's
 * reason, or the kernel no backend computes at the caps' bit depth. */
static gboolean
ensure_backend (GstDaedalusFilter *self, const GstVideoInfo *info)
{
  FilterState &state = get_state (self);
  GstDaedalusChoiceRequest request;
  {
    GstDaedalusObjectLock lock (self);
    request.setting = state.setting;
    request.setting_explicit = state.setting_explicit;
    request.threads = (int) state.n_threads;
    request.budget_ms = state.calibration_budget;
  }
  request.element = GST_ELEMENT (self);
  request.placement = &state.placement;
  request.category = GST_DAEDALUS_FILTER_GET_CLASS (self)->debug_category;
  request.info = info;
  request.job = GST_DAEDALUS_FILTER_GET_CLASS (self)->make_job (self);
  request.warned_no_gpu = &state.warned_no_gpu;
  request.gpu_failed = state.gpu_failed;
  const std::string chosen_for = std::to_string (request.setting) + " " +
      std::to_string (request.setting_explicit) + " " +
      gst_daedalus_choice_subject (info, request.job, request.threads);
  if (state.backend && state.chosen_for == chosen_for)
    return TRUE;

  state.drop_backend ();
  state.placement.clear ();
  set_active (self, std::nullopt, GST_DAEDALUS_DECIDED_BY_NONE);

  const int depth = gst_daedalus_bit_depth (info);
  if (!daedalus::any_backend_computes (request.job.kernel, depth)) {
    return refuse (self, "kernel " + chosen_for,
        g_strdup_printf ("%s cannot "
                         "filter %s video with these settings: no backend "
                         "computes %s "
                         "on %d-bit video yet.",
            GST_OBJECT_NAME (gst_element_get_factory (GST_ELEMENT (self))),
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
            std::string (daedalus::kernel_name (request.job.kernel)).c_str (),
            depth),
        "Choose other settings, or convert the video to an 8-bit format.");
  }
  GstDaedalusChoice choice = gst_daedalus_choose_backend (request);
  if (choice.unsupported) {
    return refuse (self, "setting " + chosen_for,
        g_strdup (choice.backend.status ().message ().c_str ()),
        "Set backend=auto or backend=cpu to run anyway.");
  }
  if (!choice.backend) {
    return refuse (self, "setting " + std::to_string (request.setting),
        g_strdup_printf ("The daedalus \"%s\" backend is not available: %s",
            choice.setting_name.c_str (),
            choice.backend.status ().message ().c_str ()),
        "Set backend=auto or backend=scalar to run anyway.");
  }
  std::shared_ptr<daedalus::Backend> backend =
      std::move (choice.backend).value ();
  if (choice.may_fall_back) {
    daedalus::BackendOptions cpu_options;
    cpu_options.threads = request.threads;
    backend = std::make_shared<daedalus::FallbackBackend> (std::move (backend),
        cpu_options, [self] (const daedalus::FallbackNotice &notice) {
          fell_back (self, notice);
        });
  }
  adopt_backend (self, std::move (backend), choice.decided_by);
  state.chosen_for = chosen_for;
  state.refused.reset ();
  return TRUE;
}

static void
update_passthrough (GstDaedalusFilter *self, const GstVideoInfo *info,
    gboolean negotiating)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  gboolean noop = GST_DAEDALUS_FILTER_GET_CLASS (self)->is_noop (self, info);

  if (noop == gst_base_transform_is_passthrough (trans))
    return;

  GST_DEBUG_OBJECT (self, "passthrough %s", noop ? "on" : "off");
  gst_base_transform_set_passthrough (trans, noop);
  if (negotiating)
    return;
  /* Leaving passthrough, an out-of-place element needs an output pool again:
   * ask for one before this buffer is processed. */
  if (!noop && !gst_base_transform_is_in_place (trans))
    gst_base_transform_reconfigure_src (trans);
  /* The gpu backend's pool is proposed upstream only while frames are
   * filtered: ask upstream to query again. */
  if (get_state (self).allocator)
    gst_base_transform_reconfigure_sink (trans);
}

static gboolean
gst_daedalus_filter_set_info (GstVideoFilter *vfilter, GstCaps *,
    GstVideoInfo *in_info, GstCaps *, GstVideoInfo *)
{
  GstDaedalusFilter *self = GST_DAEDALUS_FILTER (vfilter);

  /* The strongest settings, which the backend choice times. */
  reset_estimate (self);
  if (!ensure_backend (self, in_info))
    return FALSE;

  update_passthrough (self, in_info, TRUE);
  return TRUE;
}

static gboolean
gst_daedalus_filter_propose_allocation (GstBaseTransform *trans,
    GstQuery *decide_query, GstQuery *query)
{
  GstAllocator *allocator = get_state (GST_DAEDALUS_FILTER (trans)).allocator;

  /* In place, this asks downstream, which need not answer. */
  const gboolean answered =
      GST_BASE_TRANSFORM_CLASS (gst_daedalus_filter_parent_class)
          ->propose_allocation (trans, decide_query, query);
  /* Frames passed through go downstream untouched: no reason to have them in
   * memory the CPU may read uncached. */
  if (!allocator || gst_base_transform_is_passthrough (trans))
    return answered;
  GST_DEBUG_OBJECT (trans, "proposing a Vulkan buffer pool");
  return gst_daedalus_vk_propose_pool (query, allocator);
}

static gboolean
gst_daedalus_filter_decide_allocation (GstBaseTransform *trans, GstQuery *query)
{
  GstAllocator *allocator = get_state (GST_DAEDALUS_FILTER (trans)).allocator;

  if (!allocator) {
    return GST_BASE_TRANSFORM_CLASS (gst_daedalus_filter_parent_class)
        ->decide_allocation (trans, query);
  }
  GST_DEBUG_OBJECT (trans, "output into a Vulkan buffer pool");
  return gst_daedalus_vk_decide_pool (query, allocator);
}

static void
gst_daedalus_filter_before_transform (GstBaseTransform *trans,
    GstBuffer *buffer)
{
  GstDaedalusFilter *self = GST_DAEDALUS_FILTER (trans);

  if (trans->segment.format == GST_FORMAT_TIME) {
    GstClockTime stream_time = gst_segment_to_stream_time (&trans->segment,
        GST_FORMAT_TIME, GST_BUFFER_PTS (buffer));
    if (GST_CLOCK_TIME_IS_VALID (stream_time))
      gst_object_sync_values (GST_OBJECT (self), stream_time);
  }

  const GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;
  switch (GST_VIDEO_INFO_INTERLACE_MODE (info)) {
    case GST_VIDEO_INTERLACE_MODE_INTERLEAVED:
      get_state (self).two_fields = true;
      break;
    case GST_VIDEO_INTERLACE_MODE_MIXED:
      get_state (self).two_fields =
          GST_BUFFER_FLAG_IS_SET (buffer, GST_VIDEO_BUFFER_FLAG_INTERLACED);
      break;
    default:
      /* Progressive, or one field a buffer (alternate): one picture. */
      get_state (self).two_fields = false;
      break;
  }
  GstDaedalusFilterClass *klass = GST_DAEDALUS_FILTER_GET_CLASS (self);
  bool reset_requested;
  {
    GstDaedalusObjectLock lock (self);
    reset_requested = get_state (self).damage_reset_requested;
    get_state (self).damage_reset_requested = false;
  }
  if (reset_requested)
    get_state (self).damage.reset ();
  if (klass->auto_strength && klass->auto_strength (self)) {
    const std::optional<daedalus::DamageEstimate> estimate =
        get_state (self).damage.update (GST_ELEMENT (self),
            klass->debug_category, buffer, info, get_state (self).two_fields,
            klass->takes_upstream_estimate);
    if (estimate)
      klass->apply_estimate (self, &*estimate);
  }
  update_passthrough (self, info, FALSE);
}

/* The bytes a buffer must hold for a frame of @info: as its GstVideoMeta
 * lays the planes out, if it has one, else as @info does. */
static gsize
expected_size (GstBuffer *buffer, const GstVideoInfo *info)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  if (!meta)
    return GST_VIDEO_INFO_SIZE (info);

  gsize end = 0;
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    const guint p = GST_VIDEO_INFO_COMP_PLANE (info, c);
    if (p < meta->n_planes) {
      end = MAX (end,
          meta->offset[p] +
              (gsize) meta->stride[p] * GST_VIDEO_INFO_COMP_HEIGHT (info, c));
    }
  }
  return end;
}

/* Whether @buffer is too small for the negotiated caps, which the element
 * then says once per buffer. */
static gboolean
is_short_buffer (GstDaedalusFilter *self, GstBuffer *buffer)
{
  const gsize size = gst_buffer_get_size (buffer);
  const gsize expected =
      expected_size (buffer, &GST_VIDEO_FILTER (self)->in_info);
  if (size >= expected)
    return FALSE;

  GST_ELEMENT_WARNING (self, STREAM, FORMAT,
      ("A buffer is smaller than its caps say: it is passed on unfiltered."),
      ("Buffer %p (pts %" GST_TIME_FORMAT ") holds %" G_GSIZE_FORMAT
       " bytes; its caps and video meta need %" G_GSIZE_FORMAT ".",
          buffer, GST_TIME_ARGS (GST_BUFFER_PTS (buffer)), size, expected));
  return TRUE;
}

static GstFlowReturn
gst_daedalus_filter_transform (GstBaseTransform *trans, GstBuffer *inbuf,
    GstBuffer *outbuf)
{
  if (outbuf == inbuf)
    return GST_FLOW_OK;
  return GST_BASE_TRANSFORM_CLASS (gst_daedalus_filter_parent_class)
      ->transform (trans, inbuf, outbuf);
}

static GstFlowReturn
gst_daedalus_filter_transform_ip (GstBaseTransform *trans, GstBuffer *buf)
{
  const GstVideoInfo *info = &GST_VIDEO_FILTER (trans)->in_info;
  if (gst_buffer_get_size (buf) < expected_size (buf, info))
    return GST_FLOW_OK;
  return GST_BASE_TRANSFORM_CLASS (gst_daedalus_filter_parent_class)
      ->transform_ip (trans, buf);
}

/* In place, the output buffer is the input made writable: a deblock leaves
 * its estimate there (a DaedalusDamageMeta) for a daedaluscdef downstream,
 * also while it passes buffers through (levels 0 and 1, at which CDEF may
 * still filter): then a buffer that is not writable is replaced by a copy
 * of its metadata that shares its memory. */
static GstFlowReturn
gst_daedalus_filter_prepare_output_buffer (GstBaseTransform *trans,
    GstBuffer *input, GstBuffer **output)
{
  GstDaedalusFilter *self = GST_DAEDALUS_FILTER (trans);
  GstDaedalusFilterClass *klass = GST_DAEDALUS_FILTER_GET_CLASS (self);
  /* A buffer too small for its caps: the input itself is the output
   * (GstBaseTransform takes no reference then); transform[_ip] leave it
   * alone. */
  if (!gst_base_transform_is_passthrough (trans) &&
      is_short_buffer (self, input)) {
    *output = input;
    return GST_FLOW_OK;
  }
  const GstFlowReturn ret =
      GST_BASE_TRANSFORM_CLASS (gst_daedalus_filter_parent_class)
          ->prepare_output_buffer (trans, input, output);
  const std::optional<daedalus::DamageEstimate> &estimate =
      get_state (self).damage.last ();
  if (ret != GST_FLOW_OK || !klass->shares_estimate || !estimate ||
      !klass->auto_strength (self))
    return ret;
  /* The base class drops its reference to the input when the output
   * differs. */
  if (!gst_buffer_is_writable (*output))
    *output = gst_buffer_make_writable (gst_buffer_ref (*output));
  gst_daedalus_damage_meta_add (*output, *estimate);
  return ret;
}

/* One picture (a frame, or one field of it) through the backend; TRUE in
 * @zero_copy when the gpu backend filtered it in place in its memory. */
static GstFlowReturn
run_picture (GstDaedalusFilter *filter, const daedalus::Frame &dst,
    const daedalus::ConstFrame &src, gboolean *zero_copy)
{
  FilterState &state = get_state (filter);
  const daedalus::FrameJob job =
      GST_DAEDALUS_FILTER_GET_CLASS (filter)->make_job (filter);

  /* A gpu or hybrid backend auto chose redoes a failed frame on the cpu
   * backend itself (daedalus::FallbackBackend; fell_back () is told). */
  const daedalus::Status status = job.run (*state.backend, dst, src);
  if (status) {
    *zero_copy = FALSE;
    if (state.gpu) {
      const daedalus::GpuFrameStats &stats = state.gpu->last_frame_stats ();
      *zero_copy = stats.staged_groups == 0 && stats.zero_copy_groups > 0;
    }
    return GST_FLOW_OK;
  }

  GST_ELEMENT_ERROR (filter, STREAM, FAILED, ("%s", status.message ().c_str ()),
      ("The %s backend failed on a frame.",
          std::string (daedalus::backend_name (state.backend->kind ()))
              .c_str ()));
  return GST_FLOW_ERROR;
}

void
gst_daedalus_filter_restart_estimate_locked (GstDaedalusFilter *filter)
{
  get_state (filter).damage_reset_requested = true;
}

void
gst_daedalus_filter_install_auto_strength (GObjectClass *klass, guint prop_id)
{
  g_object_class_install_property (klass, prop_id,
      g_param_spec_boolean ("auto-strength", "Auto strength",
          "Choose the filter's settings from the damage measured in the "
          "stream (clean video passes through); setting any other filter "
          "property turns this off, and while on they read back the values "
          "the last frame used",
          TRUE,
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_MUTABLE_PLAYING)));
}

GstFlowReturn
gst_daedalus_filter_run (GstDaedalusFilter *filter, const daedalus::Frame &dst,
    const daedalus::ConstFrame &src)
{
  FilterState &state = get_state (filter);
  const int pictures = state.two_fields ? 2 : 1;
  gboolean zero_copy = TRUE;

  for (int parity = 0; parity < pictures; parity++) {
    const daedalus::Frame picture =
        pictures == 1 ? dst : daedalus::field_of (dst, parity);
    if (picture.planes[0].height == 0)
      break;
    gboolean picture_zero_copy;
    const GstFlowReturn ret = run_picture (filter, picture,
        pictures == 1 ? src : daedalus::field_of (src, parity),
        &picture_zero_copy);
    if (ret != GST_FLOW_OK)
      return ret;
    zero_copy = zero_copy && picture_zero_copy;
  }
  if (zero_copy) {
    GstDaedalusObjectLock lock (filter);
    state.zero_copy_frames++;
  }
  return GST_FLOW_OK;
}

void
gst_daedalus_filter_class_set_progressive_only (GstDaedalusFilterClass *klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  /* Templates of the same names replace the base class's. */
  gst_element_class_add_static_pad_template (element_class,
      &progressive_sink_template);
  gst_element_class_add_static_pad_template (element_class,
      &progressive_src_template);
}

daedalus::Frame
gst_daedalus_frame_view (const GstVideoFrame *frame)
{
  daedalus::Frame view;

  const GstVideoFormatInfo *finfo = frame->info.finfo;

  view.num_planes = GST_VIDEO_FRAME_N_COMPONENTS (frame) >= 3 ? 3 : 1;
  for (int c = 0; c < view.num_planes; c++) {
    daedalus::Plane &p = view.planes[c];
    p.data = static_cast<uint8_t *> (GST_VIDEO_FRAME_COMP_DATA (frame, c));
    p.stride = GST_VIDEO_FRAME_COMP_STRIDE (frame, c);
    p.width = GST_VIDEO_FRAME_COMP_WIDTH (frame, c);
    p.height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, c);
    p.step = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, c);
    p.bit_depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c);
    p.lsb = GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c);
  }
  if (view.num_planes == 3) {
    view.chroma_shift_x = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, 1);
    view.chroma_shift_y = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, 1);
  }
  /* Interleaved chroma: the channels are the samples at byte 0 and one
   * sample further in each pair, the first the one of the smaller component
   * offset. GStreamer 1.22 says 1 for P010's V, half a 16-bit sample. */
  if (view.num_planes == 3 &&
      GST_VIDEO_FRAME_COMP_PLANE (frame, 1) ==
          GST_VIDEO_FRAME_COMP_PLANE (frame, 2)) {
    const bool u_first = GST_VIDEO_FRAME_COMP_POFFSET (frame, 1) <
        GST_VIDEO_FRAME_COMP_POFFSET (frame, 2);
    uint8_t *pair = static_cast<uint8_t *> (GST_VIDEO_FRAME_PLANE_DATA (frame,
        GST_VIDEO_FRAME_COMP_PLANE (frame, 1)));
    const int size = view.planes[1].bytes_per_sample ();
    view.planes[1].data = pair + (u_first ? 0 : size);
    view.planes[2].data = pair + (u_first ? size : 0);
  }
  return view;
}
