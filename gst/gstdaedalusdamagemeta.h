/* daedalus
 * Copyright (C) 2026 The daedalus authors
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* DaedalusDamageMeta: the damage estimate a daedalusdeblock made of a
 * buffer, carried to a daedaluscdef further down the chain, which would
 * otherwise measure input that is already deblocked (docs/spec.md, "Damage
 * estimate and auto strength"). A GstCustomMeta whose structure holds the
 * estimate's fields; tagged video and size, so that elements that scale
 * the picture drop it. */
#pragma once

#include <gst/gst.h>

#include "daedalus/damage.h"

/* Registers the meta; once, from plugin_init. */
void gst_daedalus_damage_meta_register (void);

void gst_daedalus_damage_meta_add (GstBuffer *buffer,
    const daedalus::DamageEstimate &estimate);

/* FALSE when @buffer carries no such meta, or one that does not parse. */
gboolean gst_daedalus_damage_meta_get (GstBuffer *buffer,
    daedalus::DamageEstimate *estimate);

/* The estimate as a structure named @name (the meta's, and the element
 * message "daedalus-damage"). */
GstStructure *gst_daedalus_damage_structure (const char *name,
    const daedalus::DamageEstimate &estimate);
