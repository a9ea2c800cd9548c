#!/usr/bin/env python3
"""Fails when a file includes a header of a layer above its own.

The layers of docs/architecture.md and what each may see (SEES): common
(frames, images, status, the thread pool: nothing of ours), filters (each
family; a family sees only itself, common and the headers directly in
kernels/filters/, which all families share and so include none of them), vulkan (the compute runner:
common; it knows no filter), tuning (settings chosen from the damage
estimate: every family's parameters, so common and filters; no runner),
backends (common, filters, vulkan, and the shaders' shared headers), gst
(the elements: the library's public headers only). Nothing under kernels/
includes GStreamer or GLib, however quoted; only the runner and the backends include
Vulkan's headers; a shader includes its own family's headers and common's.
An include in <...> is the project's own when its first folder is one of
ours (`-I kernels` finds <backends/...> too), except the Vulkan headers'
own names under vulkan/.

    tools/check-layers.py [ROOT]   check the tree (default: this checkout)
    tools/check-layers.py --self-test
"""
import os
import re
import sys

PUBLIC = {
    "frame.h": "common",
    "status.h": "common",
    "image.h": "common",
    "metrics.h": "common",
    "machine.h": "common",
    "thread_pool.h": "common",
    "dct8.h": "common",
    "deblock.h": "filters/deblock",
    "cdef.h": "filters/cdef",
    "mc.h": "filters/mc",
    "damage.h": "filters/damage",
    "auto_strength.h": "tuning",
}  # every other daedalus/*.h belongs to the backends
# What each layer may include besides itself: the table of
# docs/architecture.md, not a rank (tuning is above filters but no more
# sees the runner than filters do).
SEES = {
    "common": set(),
    "filters": {"common"},
    "vulkan": {"common"},
    "tuning": {"common", "filters"},
    "backends": {"common", "filters", "vulkan"},
    "gst": {"common", "filters", "tuning", "backends"},
}
SOURCES = (".c", ".cc", ".h")
SHADER_FAMILIES = ("deblock", "cdef", "mc")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
# The Khronos and Vulkan-Utility headers: <vulkan/...> names not the runner's.
SYSTEM_VULKAN = re.compile(
    r"vulkan/(vulkan[^/]*|vk_platform\.h|vk_icd\.h|vk_layer\.h|"
    r"vk_enum_string_helper\.h|utility/.*)$"
)


def layer_of_path(path):
    """The layer (and family, for filters) of a file by its place."""
    parts = path.split("/")
    if parts[0] == "gst":
        return "gst"
    if parts[0] == "shaders":
        return "shaders"
    if parts[0] != "kernels" or len(parts) < 3:
        return None
    if parts[1] == "include":
        return PUBLIC.get(parts[-1], "backends")
    if parts[1] == "filters":
        return "filters/" + parts[2] if len(parts) > 3 else "filters"
    return parts[1] if parts[1] in SEES else None


def layer_of_include(name):
    if name.startswith("daedalus/"):
        return PUBLIC.get(name.split("/", 1)[1], "backends")
    if name in ("daedalus_config.h",) or name.endswith(".spv.h"):
        return None  # generated: build options, embedded SPIR-V
    first = name.split("/", 1)[0]
    if first in ("deblock", "cdef", "mc") and "/" in name:
        return "shaders"  # a family's header shared with its shader
    if first in ("common", "vulkan", "backends", "tuning"):
        return first
    if first == "filters":
        parts = name.split("/")
        return "filters/" + parts[1] if len(parts) > 2 else "filters"
    return None


def allowed(own, other):
    if other is None or own is None:
        return True
    if own == "shaders":
        return other == "shaders"
    if other == "shaders":
        return own.startswith("backends")
    own_top, other_top = own.split("/")[0], other.split("/")[0]
    if own_top == "filters" and other_top == "filters":
        # A family sees itself and what all families share, not another;
        # what they share sees none of them.
        return other == "filters" or own == other
    if own_top == other_top:
        return True
    return other_top in SEES[own_top]


def problems(path, text):
    own = layer_of_path(path)
    found = []
    for quote, name in INCLUDE.findall(text):
        shown = f'"{name}"' if quote == '"' else f"<{name}>"
        if path.startswith("kernels/") and name.startswith(("gst/", "glib", "gio/", "gobject/")):
            found.append(
                f"{path}: includes {shown}: the kernel library " "knows no GStreamer or GLib"
            )
            continue
        if (
            quote == "<"
            and name.startswith("vulkan/")
            and own not in (None, "shaders")
            and own.split("/")[0] != "vulkan"
            and "vulkan" not in SEES[own.split("/")[0]]
        ):
            found.append(
                f"{path} ({own}): includes <{name}>: only the layers that "
                "see the runner talk to Vulkan"
            )
            continue
        if own == "shaders" and name.split("/")[0] in SHADER_FAMILIES:
            family = path.split("/")[1]
            if name.split("/")[0] != family:
                found.append(
                    f'{path}: includes "{name}": a shader sees its own ' "family and common only"
                )
                continue
        if "../" in name:
            found.append(f"{path}: includes {name} by a relative path: its layer cannot be told")
            continue
        other = layer_of_include(name)
        # The project's own headers, however quoted; other <...> are system headers.
        if quote != '"' and (other is None or SYSTEM_VULKAN.match(name)):
            continue
        if own == "gst" and not (name.startswith("daedalus/") or name.startswith("gstdaedalus")):
            found.append(
                f"{path}: includes {shown}: the elements use the " "library's public headers only"
            )
            continue
        if not allowed(own, other):
            found.append(f"{path} ({own}): includes {shown} ({other}), " "a layer it may not see")
    return found


def check_tree(root):
    found = []
    for top in ("kernels", "gst", "shaders"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith(SOURCES) and not f.endswith(".comp"):
                    continue
                full = os.path.join(folder, f)
                rel = os.path.relpath(full, root)
                with open(full, encoding="utf-8") as fh:
                    found += problems(rel, fh.read())
    return found


def self_test():
    """Each rule catches what it is for; legal includes pass."""
    bad = [
        ("kernels/filters/cdef/cdef.cc", '#include "vulkan/vk_batch.h"'),
        ("kernels/filters/cdef/cdef.cc", '#include "backends/cpu/backend_dsp.h"'),
        ("kernels/filters/cdef/cdef.cc", '#include "daedalus/backend.h"'),
        ("kernels/filters/cdef/cdef.cc", '#include "filters/mc/mc_tap.h"'),
        ("kernels/filters/mc/mc.cc", '#include "daedalus/deblock.h"'),
        ("kernels/filters/damage/damage.cc", '#include "daedalus/cdef.h"'),
        ("kernels/filters/damage/damage.cc", '#include "daedalus/auto_strength.h"'),
        ("kernels/vulkan/vk_batch.cc", '#include "daedalus/cdef.h"'),
        ("kernels/vulkan/vk_batch.cc", '#include "backends/gpu/gpu_bands.h"'),
        ("kernels/common/image.cc", '#include "daedalus/mc.h"'),
        ("kernels/common/image.cc", "#include <gst/gst.h>"),
        ("kernels/filters/mc/mc.cc", '#include "mc/mc_push.h"'),
        ("gst/gstdaedalusfilter.cc", '#include "vulkan/vk_context.h"'),
        ("kernels/filters/cdef/cdef.cc", "#include <daedalus/backend.h>"),
        ("kernels/filters/cdef/cdef.cc", '#include "../../vulkan/vk_batch.h"'),
        ("kernels/common/image.cc", "#include <gio/gio.h>"),
        ("kernels/common/image.cc", "#include <gobject/gobject.h>"),
        ("kernels/tuning/auto_strength.cc", '#include "vulkan/vk_context.h"'),
        ("kernels/tuning/auto_strength.cc", '#include "daedalus/backend.h"'),
        ("kernels/vulkan/vk_batch.cc", '#include "daedalus/auto_strength.h"'),
        ("kernels/backends/backend.cc", '#include "daedalus/auto_strength.h"'),
        ("kernels/filters/cdef/cdef.cc", "#include <vulkan/vulkan.h>"),
        ("kernels/common/image.cc", "#include <vulkan/vulkan_core.h>"),
        ("kernels/tuning/auto_strength.cc", "#include <vulkan/vulkan.h>"),
        ("shaders/cdef/cdef.comp", '#include "deblock/deblock_group.h"'),
        ("kernels/common/image.cc", '#include "gst/gst.h"'),
        ("kernels/common/image.cc", '#include "glib.h"'),
        ("kernels/filters/cdef/cdef.cc", "#include <backends/cpu/backend_dsp.h>"),
        ("kernels/filters/cdef/cdef.cc", "#include <filters/mc/mc_tap.h>"),
        ("kernels/vulkan/vk_batch.cc", "#include <filters/cdef/cdef_bytes.h>"),
        ("gst/gstdaedalusfilter.cc", "#include <backends/cpu/backend_dsp.h>"),
        ("kernels/filters/simd_init.h", '#include "daedalus/cdef.h"'),
        ("kernels/filters/cpu_features.h", '#include "filters/mc/mc_tap.h"'),
    ]
    good = [
        ("kernels/filters/cdef/cdef.cc", '#include "daedalus/cdef.h"'),
        ("kernels/filters/cdef/cdef.cc", '#include "daedalus/thread_pool.h"'),
        ("kernels/filters/cdef/cdef_simd.cc", '#include "filters/simd_init.h"'),
        ("kernels/backends/gpu/cdef_vk.cc", '#include "cdef/cdef_push.h"'),
        ("kernels/backends/gpu/cdef_vk.cc", '#include "vulkan/vk_batch.h"'),
        ("kernels/vulkan/vk_batch.cc", '#include "daedalus/status.h"'),
        ("gst/gstdaedalusfilter.cc", '#include "daedalus/backend_gpu.h"'),
        ("kernels/tuning/auto_strength.cc", '#include "daedalus/damage.h"'),
        ("kernels/tuning/auto_strength.cc", '#include "daedalus/deblock.h"'),
        ("kernels/filters/cdef/cdef.cc", "#include <daedalus/cdef.h>"),
        ("kernels/filters/cdef/cdef.cc", "#include <hwy/highway.h>"),
        ("kernels/vulkan/vk_batch.h", "#include <vulkan/vulkan.h>"),
        ("kernels/backends/gpu/cdef_vk.cc", "#include <vulkan/vulkan.h>"),
        ("shaders/cdef/cdef.comp", '#include "cdef/cdef_push.h"'),
        ("shaders/cdef/cdef.comp", '#include "samples.h"'),
        ("kernels/filters/cdef/cdef_simd.cc", "#include <filters/cdef/cdef_bytes.h>"),
        ("kernels/backends/gpu/cdef_vk.cc", "#include <vulkan/vk_batch.h>"),
        ("kernels/backends/gpu/cdef_vk.cc", "#include <vulkan/vk_platform.h>"),
        ("kernels/filters/simd_init.h", '#include "daedalus/status.h"'),
        ("gst/gstdaedalusfilter.cc", "#include <gst/video/video.h>"),
    ]
    failures = [f"missed: {p}: {t}" for p, t in bad if not problems(p, t)]
    failures += [f"wrongly refused: {p}: {t}" for p, t in good if problems(p, t)]
    return failures


def main():
    if sys.argv[1:] == ["--self-test"]:
        found = self_test()
    else:
        root = (
            sys.argv[1]
            if len(sys.argv) > 1
            else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
        )
        found = check_tree(root)
    for line in found:
        print(line)
    print(f"{len(found)} layer violations" if found else "layers: ok")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
