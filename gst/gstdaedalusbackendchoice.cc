/* daedalus
 * Copyright (C) 2026 The daedalus authors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "gstdaedalusbackendchoice.h"

#include <atomic>
#include <cstring>

#include "daedalus/backend_gpu.h"
#include "daedalus/fault_injection.h"
#include "daedalus/machine.h"
#include "daedalus/thread_pool.h"
#include "gstdaedalusdecisioncache.h"

#define GST_CAT_DEFAULT (request.category)

namespace {

using daedalus::BackendKind;

/* gst_daedalus_note_gpu_lost () was called. */
std::atomic<bool> gpu_lost_in_process;

BackendKind
kind_of (GstDaedalusBackend setting)
{
  switch (setting) {
    case GST_DAEDALUS_BACKEND_CPU:
      return BackendKind::Cpu;
    case GST_DAEDALUS_BACKEND_GPU:
      return BackendKind::Gpu;
    case GST_DAEDALUS_BACKEND_HYBRID:
      return BackendKind::Hybrid;
    default:
      return BackendKind::Scalar;
  }
}

daedalus::PixelFormat
daedalus_format (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_YV12:
      return daedalus::PixelFormat::YV12;
    case GST_VIDEO_FORMAT_Y42B:
      return daedalus::PixelFormat::Y42B;
    case GST_VIDEO_FORMAT_Y444:
      return daedalus::PixelFormat::Y444;
    case GST_VIDEO_FORMAT_NV12:
      return daedalus::PixelFormat::NV12;
    case GST_VIDEO_FORMAT_NV21:
      return daedalus::PixelFormat::NV21;
    case GST_VIDEO_FORMAT_GRAY8:
      return daedalus::PixelFormat::GRAY8;
    case GST_VIDEO_FORMAT_I420_10LE:
      return daedalus::PixelFormat::I420_10LE;
    case GST_VIDEO_FORMAT_I422_10LE:
      return daedalus::PixelFormat::I422_10LE;
    case GST_VIDEO_FORMAT_Y444_10LE:
      return daedalus::PixelFormat::Y444_10LE;
    case GST_VIDEO_FORMAT_P010_10LE:
      return daedalus::PixelFormat::P010_10LE;
    default:
      return daedalus::PixelFormat::I420;
  }
}

std::string
setting_name (GstDaedalusBackend setting)
{
  GEnumClass *klass =
      G_ENUM_CLASS (g_type_class_ref (GST_TYPE_DAEDALUS_BACKEND));
  GEnumValue *value = g_enum_get_value (klass, setting);
  std::string name = value ? value->value_nick : "?";
  g_type_class_unref (klass);
  return name;
}

/* $DAEDALUS_BACKEND, when set to a backend's name. */
bool
setting_from_env (GstElement *element, GstDebugCategory *category,
    GstDaedalusBackend *setting)
{
  const gchar *env = g_getenv ("DAEDALUS_BACKEND");
  if (!env || !*env)
    return false;
  GEnumClass *klass =
      G_ENUM_CLASS (g_type_class_ref (GST_TYPE_DAEDALUS_BACKEND));
  GEnumValue *value = g_enum_get_value_by_nick (klass, env);
  if (value)
    *setting = (GstDaedalusBackend) value->value;
  else
    GST_CAT_WARNING_OBJECT (category, element,
        "ignoring DAEDALUS_BACKEND=%s: "
        "not one of auto, scalar, cpu, gpu, hybrid",
        env);
  g_type_class_unref (klass);
  return value != nullptr;
}

std::string
figures_text (const std::vector<daedalus::BackendFigure> &figures)
{
  std::string text;
  for (const daedalus::BackendFigure &f : figures) {
    gchar *item;
    if (!f.measured ())
      item = g_strdup_printf ("%s not measured (%s)",
          std::string (daedalus::backend_name (f.kind)).c_str (),
          f.why_not.message ().c_str ());
    else if (f.kind == BackendKind::Hybrid)
      item = g_strdup_printf ("hybrid %.3f ms (%.0f%% of rows on the GPU)",
          f.ms, 100 * f.gpu_share);
    else
      item = g_strdup_printf ("%s %.3f ms",
          std::string (daedalus::backend_name (f.kind)).c_str (), f.ms);
    text += (text.empty () ? "" : ", ") + std::string (item);
    g_free (item);
  }
  return text;
}

/* The gpu backend auto may try, and what identifies its device in the
 * decision cache. */
struct AutoGpu
{
  std::unique_ptr<daedalus::Backend> backend;
  std::string identity; /* name, driver version, pipelineCacheUUID */
};

/* The gpu backend, if auto (or hybrid, when @hybrid) may try it;
 * otherwise why not. */
daedalus::Result<AutoGpu>
auto_gpu (const GstDaedalusChoiceRequest &request, bool hybrid)
{
  if (!daedalus::backend_built (BackendKind::Gpu))
    return daedalus::Status::error ("this build has no gpu backend");
  daedalus::Result<std::unique_ptr<daedalus::Backend>> gpu =
      daedalus::create_backend (BackendKind::Gpu);
  if (!gpu) {
    if (!hybrid && !*request.warned_no_gpu) {
      *request.warned_no_gpu = true;
      GST_ELEMENT_WARNING (request.element, RESOURCE, NOT_FOUND,
          ("No usable GPU: the CPU runs this element."),
          ("%s", gpu.status ().message ().c_str ()));
    }
    return gpu.status ();
  }
  const daedalus::GpuDeviceInfo &info =
      static_cast<daedalus::GpuBackend &> (*gpu.value ()).device_info ();
  /* A software renderer runs on the cores the cpu backend has: only worth
   * a trial when the user points at it. */
  if (!hybrid && info.type == "software" &&
      !g_getenv ("DAEDALUS_VULKAN_DEVICE")) {
    return daedalus::Status::error ("the Vulkan device, " + info.name +
        ", is a software "
        "renderer on these CPU cores (DAEDALUS_VULKAN_DEVICE can name it)");
  }
  std::string identity = info.name + ", driver " +
      std::to_string (info.driver_version) + ", pipeline cache " +
      info.pipeline_cache_uuid;
  return AutoGpu {std::move (gpu).value (), std::move (identity)};
}

/* The cpu backend, else the scalar one. */
GstDaedalusChoice
choose_cpu (const GstDaedalusChoiceRequest &request, GstDaedalusDecidedBy by,
    const std::string &why)
{
  GstDaedalusChoice choice;
  daedalus::BackendOptions options;
  options.threads = request.threads;
  choice.backend = daedalus::create_backend (BackendKind::Cpu, options);
  if (!choice.backend)
    choice.backend = daedalus::create_backend (BackendKind::Scalar, options);
  choice.decided_by = by;
  GST_INFO_OBJECT (request.element, "backend %s (decided by %s): %s",
      choice.backend ? std::string (daedalus::backend_name (
                                        choice.backend.value ()->kind ()))
                           .c_str ()
                     : "none",
      gst_daedalus_decided_by_name (by), why.c_str ());
  return choice;
}

std::string
not_computed (BackendKind kind, daedalus::Kernel kernel, int depth)
{
  return "the " + std::string (daedalus::backend_name (kind)) +
      " backend does not compute " +
      std::string (daedalus::kernel_name (kernel)) + " on " +
      std::to_string (depth) + "-bit video yet";
}

GstDaedalusChoice
choose_auto (const GstDaedalusChoiceRequest &request, bool hybrid_only)
{
  GstDaedalusChoice choice;
  daedalus::BackendOptions options;
  options.threads = request.threads;

  /* Not worth a device (hybrid computes no more than the gpu does). */
  const int depth = gst_daedalus_bit_depth (request.info);
  if (!hybrid_only &&
      !daedalus::backend_computes (BackendKind::Gpu, request.job.kernel,
          depth)) {
    return choose_cpu (request, GST_DAEDALUS_DECIDED_BY_ONLY_CHOICE,
        "the only one to try: " +
            not_computed (BackendKind::Gpu, request.job.kernel, depth));
  }

  daedalus::Result<AutoGpu> found = auto_gpu (request, hybrid_only);
  if (!found && !hybrid_only) {
    return choose_cpu (request, GST_DAEDALUS_DECIDED_BY_ONLY_CHOICE,
        "the only one to try: the gpu is not (" + found.status ().message () +
            ")");
  }
  if (!found) {
    choice.backend = daedalus::Status::error (
        "the gpu is unavailable: " + found.status ().message ());
    return choice;
  }
  std::unique_ptr<daedalus::Backend> gpu = std::move (found->backend);

  GstDaedalusDecisionKey key;
  key.element = GST_OBJECT_NAME (gst_element_get_factory (request.element));
  key.format =
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (request.info));
  key.bit_depth = depth;
  key.width = GST_VIDEO_INFO_WIDTH (request.info);
  key.height = GST_VIDEO_INFO_HEIGHT (request.info);
  key.cost_key = request.job.cost_key;
  key.cpu = daedalus::cpu_model ();
  key.threads = request.threads > 0 ? request.threads
                                    : daedalus::ThreadPool::hardware_threads ();
  key.gpu = found->identity;
  /* The version alone would keep a rebuilt plugin's stale figures. */
  key.library =
      std::string (VERSION) + " build " + daedalus::library_build_id ();

  GstDaedalusDecision decision;
  std::vector<daedalus::TrialCandidate> trial;
  if (gst_daedalus_decision_cache_lookup (key, &decision)) {
    choice.decided_by = GST_DAEDALUS_DECIDED_BY_CACHE;
  } else {
    daedalus::TrialSpec spec;
    spec.format = daedalus_format (GST_VIDEO_INFO_FORMAT (request.info));
    spec.width = key.width;
    spec.height = key.height;
    spec.budget_ms = request.budget_ms;
    spec.threads = request.threads;
    daedalus::TrialSeams seams;
    seams.create = [&gpu] (BackendKind kind, const daedalus::BackendOptions &o)
        -> daedalus::Result<std::unique_ptr<daedalus::Backend>> {
      if (kind == BackendKind::Gpu && gpu)
        return std::move (gpu);
      return daedalus::create_backend (kind, o);
    };
    trial = daedalus::run_trial (request.job, spec, seams);
    for (const daedalus::TrialCandidate &c : trial)
      decision.figures.push_back (c.figure);
    const int alone = daedalus::choose_figure (decision.figures, {});
    if (alone >= 0) {
      decision.backend = decision.figures[alone].kind;
      for (const daedalus::BackendFigure &f : decision.figures) {
        if (f.kind == BackendKind::Hybrid)
          decision.gpu_share = f.gpu_share;
      }
      const daedalus::Status stored =
          gst_daedalus_decision_cache_store (key, decision);
      if (!stored)
        GST_WARNING_OBJECT (request.element, "cannot write %s: %s",
            gst_daedalus_decision_cache_path ().c_str (),
            stored.message ().c_str ());
    }
    choice.decided_by = GST_DAEDALUS_DECIDED_BY_TRIAL;
  }

  /* The hybrid figure always exists when the gpu one was measured. */
  std::vector<daedalus::BackendFigure> usable;
  for (const daedalus::BackendFigure &f : decision.figures) {
    if (!hybrid_only || f.kind == BackendKind::Hybrid)
      usable.push_back (f);
  }
  const daedalus::Load others = request.placement->others ();
  const int pick = daedalus::choose_figure (usable, others);
  if (pick < 0) {
    choice.backend = daedalus::Status::error (
        "the trial measured no backend: " + figures_text (decision.figures));
    return choice;
  }
  const daedalus::BackendFigure chosen = usable[pick];
  GST_INFO_OBJECT (request.element,
      "backend %s, from the %s: %s; other "
      "elements keep the CPU busy %.3f ms and the GPU %.3f ms per frame",
      std::string (daedalus::backend_name (chosen.kind)).c_str (),
      choice.decided_by == GST_DAEDALUS_DECIDED_BY_CACHE
          ? ("cache " + gst_daedalus_decision_cache_path ()).c_str ()
          : "trial",
      figures_text (decision.figures).c_str (), others.cpu_ms, others.gpu_ms);

  for (daedalus::TrialCandidate &c : trial) {
    if (c.figure.kind == chosen.kind && c.backend)
      choice.backend = std::move (c.backend);
  }
  if (!choice.backend && chosen.kind == BackendKind::Gpu && gpu)
    choice.backend = std::move (gpu);
  if (!choice.backend) {
    options.gpu_share = decision.gpu_share;
    choice.backend = daedalus::create_backend (chosen.kind, options);
  }
  if (choice.backend) {
    request.placement->place (daedalus::load_of (chosen));
    choice.may_fall_back =
        chosen.kind == BackendKind::Gpu || chosen.kind == BackendKind::Hybrid;
  }
  return choice;
}

} /* namespace */

const char *
gst_daedalus_decided_by_name (GstDaedalusDecidedBy by)
{
  switch (by) {
    case GST_DAEDALUS_DECIDED_BY_PROPERTY:
      return "property";
    case GST_DAEDALUS_DECIDED_BY_ENVIRONMENT:
      return "environment";
    case GST_DAEDALUS_DECIDED_BY_ONLY_CHOICE:
      return "only-choice";
    case GST_DAEDALUS_DECIDED_BY_TRIAL:
      return "trial";
    case GST_DAEDALUS_DECIDED_BY_CACHE:
      return "cache";
    case GST_DAEDALUS_DECIDED_BY_FALLBACK:
      return "fallback";
    default:
      return "none";
  }
}

std::string
gst_daedalus_choice_subject (const GstVideoInfo *info,
    const daedalus::FrameJob &job, int threads)
{
  gchar *s = g_strdup_printf ("%s %dx%d %s threads=%d",
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
      job.cost_key.c_str (), threads);
  std::string subject = s;
  g_free (s);
  return subject;
}

GstDaedalusChoice
gst_daedalus_choose_backend (const GstDaedalusChoiceRequest &request)
{
  GstDaedalusBackend setting = request.setting;
  GstDaedalusDecidedBy by = GST_DAEDALUS_DECIDED_BY_PROPERTY;
  if (!request.setting_explicit &&
      setting_from_env (request.element, request.category, &setting))
    by = GST_DAEDALUS_DECIDED_BY_ENVIRONMENT;

  GstDaedalusChoice choice;
  const int depth = gst_daedalus_bit_depth (request.info);
  if (setting != GST_DAEDALUS_BACKEND_AUTO &&
      !daedalus::backend_computes (kind_of (setting), request.job.kernel,
          depth)) {
    choice.setting_name = setting_name (setting);
    choice.unsupported = "The daedalus \"" + choice.setting_name +
        "\" backend cannot filter " +
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (request.info)) +
        " video: " +
        not_computed (kind_of (setting), request.job.kernel, depth) + ".";
    return choice;
  }
  if (setting == GST_DAEDALUS_BACKEND_AUTO && request.gpu_failed) {
    choice = choose_cpu (request, GST_DAEDALUS_DECIDED_BY_FALLBACK,
        "the GPU failed this element");
  } else if (setting == GST_DAEDALUS_BACKEND_AUTO && gpu_lost_in_process) {
    choice = choose_cpu (request, GST_DAEDALUS_DECIDED_BY_FALLBACK,
        "the GPU device was lost");
  } else if (setting == GST_DAEDALUS_BACKEND_AUTO) {
    choice = choose_auto (request, false);
  } else if (setting == GST_DAEDALUS_BACKEND_HYBRID &&
      daedalus::backend_built (BackendKind::Hybrid)) {
    /* Its split comes from the same figures auto uses. */
    choice = choose_auto (request, true);
    choice.may_fall_back = false;
    choice.decided_by = by;
  } else {
    daedalus::BackendOptions options;
    options.threads = request.threads;
    choice.backend = daedalus::create_backend (kind_of (setting), options);
    choice.decided_by = by;
  }
  /* For testing the fallback: DAEDALUS_FAULT_GPU_AFTER=N makes a gpu or
   * hybrid backend fail every frame after its N-th. */
  const gchar *fault_after = g_getenv ("DAEDALUS_FAULT_GPU_AFTER");
  if (fault_after && choice.backend) {
    choice.backend =
        daedalus::inject_gpu_fault (std::move (choice.backend).value (),
            g_ascii_strtoull (fault_after, nullptr, 10),
            "DAEDALUS_FAULT_GPU_AFTER");
  }
  choice.setting_name = setting_name (setting);
  return choice;
}

int
gst_daedalus_bit_depth (const GstVideoInfo *info)
{
  return GST_VIDEO_INFO_COMP_DEPTH (info, 0);
}

void
gst_daedalus_note_gpu_lost (void)
{
  gpu_lost_in_process = true;
}
