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

/**
 * plugin-daedalus:
 *
 * Video post-processing with the loop filters of video codecs, run as
 * stand-alone elements: H.264 deblocking, AV1 CDEF de-ringing and VP9
 * sub-pixel motion compensation. Each element runs on a choice of backends
 * (scalar reference, CPU SIMD, GPU) that give bit-identical output.
 */

#include "gstdaedalusdamagemeta.h"
#include "gstdaedaluselements.h"

static gboolean
plugin_init (GstPlugin *plugin)
{
  gboolean ret = FALSE;

  gst_daedalus_damage_meta_register ();

  ret |= GST_ELEMENT_REGISTER (daedalusdeblock, plugin);
  ret |= GST_ELEMENT_REGISTER (daedaluscdef, plugin);
  ret |= GST_ELEMENT_REGISTER (daedalusmc, plugin);

  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, daedalus,
    "Codec loop filters as video post-processing: H.264 deblocking, "
    "AV1 CDEF de-ringing, VP9 sub-pixel motion compensation",
    plugin_init, VERSION, "LGPL", GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
