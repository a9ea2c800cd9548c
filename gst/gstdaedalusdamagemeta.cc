/* daedalus
 * Copyright (C) 2026 The daedalus authors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "gstdaedalusdamagemeta.h"

#include <gst/video/video.h>

static const char kMetaName[] = "DaedalusDamageMeta";

void
gst_daedalus_damage_meta_register (void)
{
  static const gchar *tags[] = {GST_META_TAG_VIDEO_STR,
      GST_META_TAG_VIDEO_SIZE_STR, nullptr};
  gst_meta_register_custom (kMetaName, tags, nullptr, nullptr, nullptr);
}

static void
set_fields (GstStructure *s, const daedalus::DamageEstimate &e)
{
  gst_structure_set (s, "level", G_TYPE_INT, e.level, "blk", G_TYPE_INT,
      e.luma.blk, "act", G_TYPE_INT, e.luma.act, "measure", G_TYPE_INT,
      e.luma.measure, "spacing", G_TYPE_INT, e.luma.spacing, "half", G_TYPE_INT,
      e.luma.half, "grid-x", G_TYPE_INT, e.grid_x, "grid-y", G_TYPE_INT,
      e.grid_y, "chroma-blk", G_TYPE_INT, e.chroma.blk, "zero-excess",
      G_TYPE_INT, e.quantiser.zero_excess, "dead-zone-qp", G_TYPE_INT,
      e.quantiser.dead_zone_qp, "quantiser", G_TYPE_INT, e.quantiser.measure,
      "probe-frames", G_TYPE_INT, e.quantiser.frames, "rung", G_TYPE_INT,
      e.rung, "frames", G_TYPE_INT, e.frames, nullptr);
}

GstStructure *
gst_daedalus_damage_structure (const char *name,
    const daedalus::DamageEstimate &estimate)
{
  GstStructure *s = gst_structure_new_empty (name);
  set_fields (s, estimate);
  return s;
}

void
gst_daedalus_damage_meta_add (GstBuffer *buffer,
    const daedalus::DamageEstimate &estimate)
{
  GstCustomMeta *meta = gst_buffer_add_custom_meta (buffer, kMetaName);
  if (meta)
    set_fields (gst_custom_meta_get_structure (meta), estimate);
}

gboolean
gst_daedalus_damage_meta_get (GstBuffer *buffer,
    daedalus::DamageEstimate *estimate)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (buffer, kMetaName);
  if (!meta)
    return FALSE;
  GstStructure *s = gst_custom_meta_get_structure (meta);
  daedalus::DamageEstimate e;
  if (!gst_structure_get (s, "level", G_TYPE_INT, &e.level, "blk", G_TYPE_INT,
          &e.luma.blk, "act", G_TYPE_INT, &e.luma.act, "measure", G_TYPE_INT,
          &e.luma.measure, "spacing", G_TYPE_INT, &e.luma.spacing, "half",
          G_TYPE_INT, &e.luma.half, "grid-x", G_TYPE_INT, &e.grid_x, "grid-y",
          G_TYPE_INT, &e.grid_y, "chroma-blk", G_TYPE_INT, &e.chroma.blk,
          "zero-excess", G_TYPE_INT, &e.quantiser.zero_excess, "dead-zone-qp",
          G_TYPE_INT, &e.quantiser.dead_zone_qp, "quantiser", G_TYPE_INT,
          &e.quantiser.measure, "probe-frames", G_TYPE_INT, &e.quantiser.frames,
          "rung", G_TYPE_INT, &e.rung, "frames", G_TYPE_INT, &e.frames,
          nullptr) ||
      e.level < 0 || e.level >= daedalus::kDamageLevels || e.rung < 0 ||
      e.rung >= daedalus::kDctRungs)
    return FALSE;
  *estimate = e;
  return TRUE;
}
