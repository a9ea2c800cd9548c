/* daedalus
 * Copyright (C) 2026 The daedalus authors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "gstdaedalusdamagetracker.h"

#include "gstdaedalusdamagemeta.h"
#include "gstdaedalusfilter.h"

void
GstDaedalusDamageTracker::reset ()
{
  estimator_.reset ();
  measuring_ = false;
  last_.reset ();
  posted_.reset ();
}

std::optional<daedalus::DamageEstimate>
GstDaedalusDamageTracker::update (GstElement *element,
    GstDebugCategory *category, GstBuffer *buffer, const GstVideoInfo *info,
    bool two_fields, bool take_upstream)
{
  if (GST_BUFFER_FLAG_IS_SET (buffer, GST_BUFFER_FLAG_DISCONT))
    reset ();
  daedalus::DamageEstimate upstream;
  if (take_upstream && gst_daedalus_damage_meta_get (buffer, &upstream)) {
    measuring_ = false;
    last_ = upstream;
    post_if_changed (element, category, true);
    return last_;
  }
  if (!measuring_)
    estimator_.reset ();
  GstVideoFrame frame;
  if (!gst_video_frame_map (&frame, info, buffer, GST_MAP_READ))
    return std::nullopt;
  const daedalus::Frame view = gst_daedalus_frame_view (&frame);
  estimator_.add_frame (two_fields ? daedalus::field_of (view, 0) : view);
  gst_video_frame_unmap (&frame);
  measuring_ = true;
  last_ = estimator_.estimate ();
  post_if_changed (element, category, false);
  return last_;
}

void
GstDaedalusDamageTracker::post_if_changed (GstElement *element,
    GstDebugCategory *category, bool from_upstream)
{
  const daedalus::DamageEstimate &e = *last_;
  GST_CAT_LOG_OBJECT (category, element,
      "frame %d: damage level %d "
      "(measure %d/256), rung %d (quantiser %d/16, dead zone qp %d, zero "
      "excess %d/65536), probe frames %d",
      e.frames, e.level, e.luma.measure, e.rung, e.quantiser.measure,
      e.quantiser.dead_zone_qp, e.quantiser.zero_excess, e.quantiser.frames);
  if (posted_ && posted_->level == e.level && posted_->rung == e.rung &&
      posted_->grid_x == e.grid_x && posted_->grid_y == e.grid_y &&
      posted_->luma.spacing == e.luma.spacing)
    return;
  posted_ = e;
  GST_CAT_INFO_OBJECT (category, element,
      "damage level %d (measure %d/256: blk %d/256, "
      "act %d/256; grid %d at %d,%d), rung %d (quantiser %d/16)%s",
      e.level, e.luma.measure, e.luma.blk, e.luma.act, e.luma.spacing, e.grid_x,
      e.grid_y, e.rung, e.quantiser.measure,
      from_upstream ? ", from upstream" : "");
  GstStructure *s = gst_daedalus_damage_structure ("daedalus-damage", e);
  gst_structure_set (s, "from-upstream", G_TYPE_BOOLEAN, from_upstream,
      nullptr);
  gst_element_post_message (element,
      gst_message_new_element (GST_OBJECT (element), s));
}
