"""The parameter sweep: every setting of every filter on a few frames of each
damaged clip, scored by PSNR, and the best setting per damage (what each
filter can do when tuned). defaults.py picks the defaults from the same
rows."""

import json
import os
import statistics

import filters
import yuv
from damage import CODECS

SWEEP_FRAMES = (1, 3)  # a B and a P frame of MPEG-2 (GOP I B B P ...)
DEBLOCK_QPS = (18, 22, 26, 30, 34, 38, 42, 46, 51)
CDEF_PRIS = (0, 2, 4, 6, 9, 12, 15)
CDEF_SECS = (0, 1, 2, 4)
CDEF_DAMPINGS = (4, 5, 6)
CHAIN_SECS = (0, 1, 2)
CHAIN_DAMPINGS = (5, 6)  # what CDEF alone prefers on damaged clips
# The element's starting default, for reference (damping 3 scores below 4-6
# on every damage tried, so the grid leaves it out otherwise).
CDEF_REFERENCE = filters.cdef_props(4, 1, 3)

# Candidates for the element defaults, whose chains sweep_defaults scores:
# the deblock and CDEF settings that come near the top of the sweep's ranking
# (defaults.py) while passing its test alone.
DEFAULT_DEBLOCKS = tuple(filters.deblock_props(qp, 1, 8) for qp in (22, 26, 30))
DEFAULT_CDEFS = tuple(
    filters.cdef_props(p, s, d) for p in (2, 4) for s in (0, 1) for d in (4, 5, 6)
)


def blocks_for(codec):
    """Deblock grids tried: the codec's, plus 8 for H.264 (its 8x8 transform
    and macroblock edges) and for clean content (the default's)."""
    grid = CODECS[codec][2] if codec in CODECS else 4
    return sorted({grid, 8})


def _select(planes, frames, region):
    """The sweep's frames, cut to region (x, y, w, h; even, so that chroma
    follows, and on the 16-sample macroblock grid, so that the coded block
    grid does) or whole when region is None."""
    planes = [p[list(frames)] for p in planes]
    if region is None:
        return planes
    x, y, w, h = region
    return [
        p[:, (y >> s) : (y + h) >> s, (x >> s) : (x + w) >> s] for p, s in zip(planes, (0, 1, 1))
    ]


def _score(tool, settings, ref, src, w, h, workdir, extra):
    rows = []
    for setting, out in filters.run_many(tool, settings, src, w, h, workdir):
        m = yuv.compare(ref, yuv.read_i420(out, w, h), ssim=False)
        rows.append(dict(extra, tool=tool, setting=setting, **m))
        os.remove(out)
    return rows


def _input(ref_path, dmg_path, w, h, region, workdir):
    """The sweep's frames of source and damaged clip, the latter also as a
    file; (ref, file, w, h)."""
    ref = _select(yuv.read_i420(ref_path, w, h), SWEEP_FRAMES, region)
    dmg = _select(yuv.read_i420(dmg_path, w, h), SWEEP_FRAMES, region)
    if region is not None:
        w, h = region[2:]
    src = os.path.join(workdir, "sweep-in.yuv")
    yuv.write_i420(src, dmg)
    return ref, dmg, src, w, h


def sweep_clip(ref_path, dmg_path, w, h, codec, region, workdir, extra):
    """Rows of scores for one damaged clip (cut to region, if not None): the
    damaged frames ("none") and every setting of each filter alone."""
    ref, dmg, src, w, h = _input(ref_path, dmg_path, w, h, region, workdir)
    rows = [dict(extra, tool="none", setting="none", **yuv.compare(ref, dmg, ssim=False))]
    grid = CODECS[codec][2] if codec in CODECS else 8
    rows += _score("ffmpeg", filters.ffmpeg_settings(grid), ref, src, w, h, workdir, extra)
    rows += _score(
        "gst",
        filters.deblock_settings(DEBLOCK_QPS, blocks_for(codec)),
        ref,
        src,
        w,
        h,
        workdir,
        extra,
    )
    rows += _score(
        "gst",
        filters.cdef_settings(CDEF_DAMPINGS, CDEF_PRIS, CDEF_SECS) + [CDEF_REFERENCE],
        ref,
        src,
        w,
        h,
        workdir,
        extra,
    )
    os.remove(src)
    return rows


def sweep_chain(ref_path, dmg_path, w, h, deblock, region, workdir, extra):
    """Rows for `deblock` (the damage's tuned one) then each CDEF setting of
    the chain's grid."""
    ref, _, src, w, h = _input(ref_path, dmg_path, w, h, region, workdir)
    chains = [
        deblock + " ! " + c for c in filters.cdef_settings(CHAIN_DAMPINGS, CDEF_PRIS, CHAIN_SECS)
    ]
    rows = _score("gst", chains, ref, src, w, h, workdir, extra)
    os.remove(src)
    return rows


def sweep_defaults(ref_path, dmg_path, w, h, region, workdir, extra):
    """Rows for each pair of default candidates chained."""
    ref, _, src, w, h = _input(ref_path, dmg_path, w, h, region, workdir)
    chains = [d + " ! " + c for d in DEFAULT_DEBLOCKS for c in DEFAULT_CDEFS]
    rows = _score("gst", chains, ref, src, w, h, workdir, dict(extra, stage="defaults"))
    os.remove(src)
    return rows


def family(row):
    """The filter a row's setting belongs to."""
    s = row["setting"]
    if row.get("stage") == "defaults":
        return "defaults-chain"
    if row["tool"] == "gst":
        if "daedalusdeblock" in s and "daedaluscdef" in s:
            return "daedalus-chain"
        return "daedalus-deblock" if "daedalusdeblock" in s else "daedalus-cdef"
    if row["tool"] == "ffmpeg":
        name = s.split("=")[0]
        if name == "deblock":
            return "ffmpeg-deblock-" + s.split("filter=")[1].split(":")[0]
        return "ffmpeg-" + name
    return "none"


def gains(rows, metric="psnr_yuv"):
    """{(content, codec, q): {setting: gain over the damaged frames}}."""
    base, out = {}, {}
    for r in rows:
        key = (r["content"], r["codec"], r["q"])
        if r["tool"] == "none":
            base[key] = r[metric]
    for r in rows:
        if r["tool"] != "none":
            key = (r["content"], r["codec"], r["q"])
            out.setdefault(key, {})[(family(r), r["setting"])] = r[metric] - base[key]
    return out


def best_per_damage(rows, tolerance, metric="psnr_yuv"):
    """{(codec, q): {family: setting}}: of the settings that lose at most
    `tolerance` dB on every content, the one with the largest mean gain over
    the sweep's contents (else the one whose worst content loses least).
    The chain is keyed by its CDEF part (its deblock is the tuned one)."""
    per = {}
    for (content, codec, q), g in gains(rows, metric).items():
        for (fam, setting), v in g.items():
            if fam == "daedalus-chain":
                setting = setting.split(" ! ", 1)[1]
            per.setdefault((codec, q), {}).setdefault(fam, {}).setdefault(setting, []).append(v)

    def pick(s):
        # Only settings scored on every content of this damage.
        n = max(len(v) for v in s.values())
        s = {k: v for k, v in s.items() if len(v) == n}
        ok = [k for k, v in s.items() if min(v) >= -tolerance]
        if ok:
            return max(ok, key=lambda k: statistics.mean(s[k]))
        return max(s, key=lambda k: min(s[k]))

    return {
        key: {fam: pick(s) for fam, s in fams.items() if fam != "defaults-chain"}
        for key, fams in per.items()
    }


def load(path):
    with open(path) as f:
        return json.load(f)


def save(path, data):
    tmp = path + ".part"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=0)
    os.replace(tmp, path)
