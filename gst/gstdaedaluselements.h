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

#include <gst/gst.h>

G_BEGIN_DECLS

GST_ELEMENT_REGISTER_DECLARE (daedalusdeblock);
GST_ELEMENT_REGISTER_DECLARE (daedaluscdef);
GST_ELEMENT_REGISTER_DECLARE (daedalusmc);

G_END_DECLS
