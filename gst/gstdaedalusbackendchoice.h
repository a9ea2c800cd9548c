/* daedalus
 * Copyright (C) 2026 The daedalus authors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Which backend an element runs: its backend property, else
 * $DAEDALUS_BACKEND, else (auto) a measured choice, cached across runs
 * (gstdaedalusdecisioncache.h) and weighed against where the process's other
 * elements run (daedalus::Placement). */
#pragma once

#include <gst/video/video.h>

#include <memory>
#include <string>

#include "daedalus/backend_choice.h"
#include "gstdaedalusfilter.h"

typedef enum
{
  GST_DAEDALUS_DECIDED_BY_NONE,        /* not negotiated */
  GST_DAEDALUS_DECIDED_BY_PROPERTY,    /* the backend property */
  GST_DAEDALUS_DECIDED_BY_ENVIRONMENT, /* $DAEDALUS_BACKEND */
  GST_DAEDALUS_DECIDED_BY_ONLY_CHOICE, /* auto, one backend available */
  GST_DAEDALUS_DECIDED_BY_TRIAL,       /* auto, measured now */
  GST_DAEDALUS_DECIDED_BY_CACHE,       /* auto, measured in an earlier run */
  GST_DAEDALUS_DECIDED_BY_FALLBACK,    /* the cpu after a gpu failure */
} GstDaedalusDecidedBy;

const char *gst_daedalus_decided_by_name (GstDaedalusDecidedBy by);

struct GstDaedalusChoiceRequest
{
  GstElement *element;            /* logs, warnings */
  daedalus::Placement *placement; /* the element's */
  GstDebugCategory *category;     /* the element's own */
  GstDaedalusBackend setting;
  bool setting_explicit; /* set on the element: beats the variable */
  const GstVideoInfo *info;
  daedalus::FrameJob job;
  int threads; /* n-threads: 0 for every core */
  double budget_ms;
  bool *warned_no_gpu; /* warn once per element */
  bool gpu_failed;     /* auto chose the GPU and it failed */
};

struct GstDaedalusChoice
{
  /* The backend, or why there is none. */
  daedalus::Result<std::unique_ptr<daedalus::Backend>> backend =
      daedalus::Status::error ("no backend was chosen");
  GstDaedalusDecidedBy decided_by = GST_DAEDALUS_DECIDED_BY_NONE;
  /* Whether a failure of this backend is met by the cpu one (auto chose
   * the gpu or hybrid: the element runs it in a daedalus::FallbackBackend). */
  bool may_fall_back = false;
  std::string setting_name; /* as the error names it */
  /* True when there is no backend because the setting names one that does
   * not compute the job at the stream's bit depth (backend's error is then
   * the whole message to post), false when the backend failed to start. */
  bool unsupported = false;
};

/* auto's choice is the cpu (decided by fallback) once the element's GPU
 * failed, or once any element's GPU device was lost, and the only choice
 * where the gpu backend does not compute the job at the stream's bit depth
 * (daedalus::backend_computes). A setting naming a backend that does not
 * gets no backend and unsupported set instead. */
GstDaedalusChoice gst_daedalus_choose_backend (
    const GstDaedalusChoiceRequest &request);

/* Remembers for the rest of the process that the GPU device is lost
 * (daedalus::Status::is_gpu_lost): every element's auto keeps to the CPU. */
void gst_daedalus_note_gpu_lost (void);

/* The bit depth of @info's samples: 8, or 10 for the *_10LE formats. */
int gst_daedalus_bit_depth (const GstVideoInfo *info);

/* What the element's key for "choose again" is: format, size, cost. */
std::string gst_daedalus_choice_subject (const GstVideoInfo *info,
    const daedalus::FrameJob &job, int threads);
