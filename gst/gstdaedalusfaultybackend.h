/* daedalus
 * Copyright (C) 2026 The daedalus authors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Fault injection, for testing the fallback from a failing GPU without one:
 * with DAEDALUS_FAULT_GPU_AFTER=N in the environment, a gpu or hybrid
 * backend that backend=auto chose fails every frame after its N-th, as a
 * lost device does. */
#pragma once

#include <memory>

#include "daedalus/backend.h"

/* @backend itself when the variable is unset or @backend is neither gpu nor
 * hybrid; otherwise @backend wrapped to fail as described. */
std::unique_ptr<daedalus::Backend>
gst_daedalus_inject_gpu_fault (std::unique_ptr<daedalus::Backend> backend);
