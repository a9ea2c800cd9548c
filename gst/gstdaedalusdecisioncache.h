/* daedalus
 * Copyright (C) 2026 The daedalus authors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The decisions backend=auto measured, kept across runs in a keyfile:
 * $XDG_CACHE_HOME/daedalus/backends.ini (~/.cache when unset). One group per
 * element, format, bit depth, size and cost key; the machine the figures were measured
 * on is stored beside them, and a decision from another machine, library
 * version or GPU driver is a miss. A file that does not parse or was not
 * written by this format is ignored and replaced. */
#pragma once

#include <string>
#include <vector>

#include "daedalus/backend_choice.h"

struct GstDaedalusDecisionKey
{
  std::string element; /* factory name */
  std::string format;  /* e.g. "I420" */
  int bit_depth = 8;   /* of the format's samples: 8 or 10 */
  int width = 0, height = 0;
  std::string cost_key; /* FrameJob::cost_key */
  /* The machine: */
  std::string cpu;     /* daedalus::cpu_model () */
  int threads = 0;     /* resolved, never 0 */
  std::string gpu;     /* device, driver, pipeline cache UUID; or why none */
  std::string library; /* version and daedalus::library_build_id () */
};

struct GstDaedalusDecision
{
  daedalus::BackendKind backend = daedalus::BackendKind::Cpu;
  double gpu_share = 0;
  std::vector<daedalus::BackendFigure> figures;
};

std::string gst_daedalus_decision_cache_path ();

/* FALSE on a miss: no file, no entry, or an entry from another machine. */
bool gst_daedalus_decision_cache_lookup (const GstDaedalusDecisionKey &key,
    GstDaedalusDecision *decision);

/* Adds or replaces the entry; an error when it cannot be written, which
 * costs only a trial next time. */
daedalus::Status
gst_daedalus_decision_cache_store (const GstDaedalusDecisionKey &key,
    const GstDaedalusDecision &decision);
