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

#pragma once

#include "gstdaedalusfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_DAEDALUS_DEBLOCK (gst_daedalus_deblock_get_type ())
G_DECLARE_FINAL_TYPE (GstDaedalusDeblock, gst_daedalus_deblock, GST,
    DAEDALUS_DEBLOCK, GstDaedalusFilter)

G_END_DECLS
