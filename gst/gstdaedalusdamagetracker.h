/* daedalus
 * Copyright (C) 2026 The daedalus authors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The damage estimate of one element's stream (docs/spec.md, "Damage
 * estimate and auto strength"): measures each input buffer, or takes the
 * estimate an upstream daedalusdeblock left on it, and posts an element
 * message "daedalus-damage" whenever the level or the grid changes.
 * Streaming thread only. */
#pragma once

#include <gst/video/video.h>

#include <optional>

#include "daedalus/damage.h"

class GstDaedalusDamageTracker {
public:
  /* Forgets every frame: new caps, a flush, a discontinuity. */
  void reset ();

  /* The estimate including @buffer; nullopt when it cannot be mapped.
   * A buffer of @two_fields is measured on its top field. Changes are
   * logged at INFO in @category. */
  std::optional<daedalus::DamageEstimate> update (GstElement *element,
      GstDebugCategory *category, GstBuffer *buffer, const GstVideoInfo *info,
      bool two_fields, bool take_upstream);

  /* The estimate of the last buffer since the last reset, if any. */
  const std::optional<daedalus::DamageEstimate> &last () const
  {
    return last_;
  }

private:
  void post_if_changed (GstElement *element, GstDebugCategory *category,
      bool from_upstream);

  daedalus::DamageEstimator estimator_;
  /* Whether the estimator's frames are this stream's: after buffers that
   * carried an upstream estimate it starts over. */
  bool measuring_ = false;
  std::optional<daedalus::DamageEstimate> last_;
  std::optional<daedalus::DamageEstimate> posted_;
};
