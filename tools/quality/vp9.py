"""daedalusdeblock mode=vp9 against mode=h264 (issue 11), on part of the
estimator's corpus (corpus.py): the 720p clips of four contents, all their
frames, clean and at every damage. Per clip:

  level   the damage level the estimator gives it (daedalusdeblock at its
          defaults, read from the element's log after the last frame);
  alone   the PSNR-YUV of each deblock setting alone: mode=vp9 at VP9_LEVELS
          x VP9_SHARPNESS x block sizes 8, 16 (and 4 on H.264), mode=h264 at
          the baselines' qps (bs=1, the codec's grid and 8);
  chain   the same deblock settings (sharpness 0) followed by the CDEF that
          auto strength picks at the clip's level (the table of
          kernels/tuning/auto_strength.cc, read from the source): what the
          automatic chain would gain with each deblock in its place;
  ffmpeg  FFmpeg's deblock (weak, strong) and spp, the filter the baselines
          find best most often, at their coarse qps.

Writes <work>/corpus/vp9/<clip>.json, and report.md (the tables of
docs/quality.md, "mode=vp9")."""

import os
import re
import statistics
import subprocess

import content
import corpus
import damage
import filters
import sweep
import yuv
from baselines import DEBLOCK_QPS, grid_of

CLIPS = (
    ("photos-pan", "720p"),
    ("retina-pan", "720p"),
    ("textures-pan", "720p"),
    ("spokes", "720p"),
)
VP9_LEVELS = (4, 8, 12, 16, 24, 32, 48, 63)
VP9_SHARPNESS = (0, 4)
FFMPEG = ["deblock=filter=%s:block={block}" % s for s in ("weak", "strong")] + [
    "spp=qp=%d" % qp for qp in filters.FFMPEG_QPS
]
AUTO_STRENGTH = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernels", "tuning", "auto_strength.cc"
)
# Light clips may lose at most this much under a recommended setting (as
# the estimator's fit allows, estimate.LIGHT_TOLERANCE_DB).
LIGHT_TOLERANCE_DB = 0.05


def vp9_props(level, sharpness, block):
    return "daedalusdeblock mode=vp9 filter-level=%d sharpness=%d block-size=%d" % (
        level,
        sharpness,
        block,
    )


def vp9_blocks(codec):
    return (4, 8, 16) if grid_of(codec) == 4 else (8, 16)


def h264_blocks(codec):
    return sorted({grid_of(codec), 8})


def deblocks(codec, sharpnesses):
    return [
        vp9_props(l, s, b) for b in vp9_blocks(codec) for s in sharpnesses for l in VP9_LEVELS
    ] + [filters.deblock_props(qp, 1, b) for b in h264_blocks(codec) for qp in DEBLOCK_QPS]


def cdef_rungs():
    """auto strength's (deblock qp, CDEF pri, sec, damping) per damage level,
    from the table in kernels/tuning/auto_strength.cc."""
    src = open(AUTO_STRENGTH).read()
    table = src[src.index("kRungs[kDamageLevels] = {") :]
    table = table[: table.index("};")]
    return [tuple(int(v) for v in m) for m in re.findall(r"\{(\d+), (\d+), (\d+), (\d+)\}", table)]


def cdef_of(rung):
    _, pri, sec, damping = rung
    return filters.cdef_props(pri, sec, damping) if pri or sec else None


def level_of(path, w, h):
    """The damage level daedalusdeblock at its defaults settles on."""
    cmd = filters.raw_source(path, w, h) + ["!", "daedalusdeblock", "!", "fakesink"]
    env = dict(os.environ, GST_DEBUG="daedalusdeblock:4", GST_DEBUG_NO_COLOR="1")
    p = subprocess.run(
        cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=True
    )
    levels = re.findall(r"damage level (\d+)", p.stdout)
    return int(levels[-1]) if levels else 0


def measure_clip(cp, c, size, codec, q, kind, rungs, workdir):
    w, h = content.SIZES[size]
    ref = yuv.read_i420(cp.src(c, size), w, h)
    path = cp.dmg(c, size, codec, q)
    level = level_of(path, w, h)
    extra = dict(content=c, size=size, codec=codec, q=q, kind=kind, level=level)
    rows = [
        dict(
            extra,
            tool="none",
            stage="none",
            setting="none",
            **yuv.compare(ref, yuv.read_i420(path, w, h), ssim=False)
        )
    ]

    def score(tool, stage, settings):
        for r in sweep._score(tool, settings, ref, path, w, h, workdir, extra):
            rows.append(dict(r, stage=stage))

    score("gst", "alone", deblocks(codec, VP9_SHARPNESS))
    cdef = cdef_of(rungs[level])
    if cdef:
        score("gst", "chain", [cdef] + [d + " ! " + cdef for d in deblocks(codec, (0,))])
    if codec != "clean":
        score("ffmpeg", "ffmpeg", [f.format(block=grid_of(codec)) for f in FFMPEG])
    return rows


def measure(cp, workdir, log, force):
    out = {}
    rungs = cdef_rungs()
    for c, size in CLIPS:
        for codec, q, kind in corpus.variants():
            key = "%s-%s-%s" % (c, size, damage.label(codec, q))
            path = cp.path("vp9", key + ".json")
            if os.path.exists(path) and not force:
                out[key] = sweep.load(path)
                continue
            log("vp9 %s" % key)
            out[key] = measure_clip(cp, c, size, codec, q, kind, rungs, workdir)
            sweep.save(path, out[key])
    return out


# --- report ------------------------------------------------------------------


def _mode(setting):
    return "vp9" if "mode=vp9" in setting else "h264"


def _gains(rows, stage):
    """{setting: gain} of one clip's rows of a stage over its damaged input;
    the chain stage's "cdef alone" row is keyed "cdef"."""
    base = next(r["psnr_yuv"] for r in rows if r["tool"] == "none")
    out = {}
    for r in rows:
        if r.get("stage") == stage:
            s = r["setting"]
            key = "cdef" if stage == "chain" and "daedalusdeblock" not in s else s.split(" ! ")[0]
            out[key] = r["psnr_yuv"] - base
    return out


def _best(per_clip, keep, light=()):
    """Of the settings `keep` accepts and scored on every clip, the one with
    the largest mean gain that loses at most LIGHT_TOLERANCE_DB on each light
    clip: (setting, mean gain), or (None, nan)."""
    if not per_clip:
        return None, float("nan")
    common = set.intersection(*(set(g) for g in per_clip))
    for g in light:
        common &= {s for s, v in g.items() if v >= -LIGHT_TOLERANCE_DB}
    cands = [s for s in common if keep(s)]
    if not cands:
        return None, float("nan")
    best = max(cands, key=lambda s: statistics.mean(g[s] for g in per_clip))
    return best, statistics.mean(g[best] for g in per_clip)


def _signed(x):
    return "-" if x != x else "%+.3f" % x


def _short(setting):
    if setting is None:
        return "-"
    if setting == "cdef":
        return "none"
    v = dict(kv.split("=") for kv in setting.split()[1:])
    if _mode(setting) == "vp9":
        return "%s/%s/%s" % (v["filter-level"], v["sharpness"], v["block-size"])
    return "qp %s/%s" % (v["qp"], v["block-size"])


def report(results, rungs):
    md = []
    damaged = {k: r for k, r in results.items() if r[0]["kind"] != "clean"}
    # Per codec and strength, deblock alone, tuned over the contents.
    md += [
        "| damage | n | mode=h264 tuned (qp/block) | gain | mode=vp9 tuned (level/sharpness/block) "
        "| gain | vp9 - h264 | h264 qp 30/8 / vp9 8/0/8 / vp9 12/0/8 (near the defaults) "
        "| FFmpeg deblock best | FFmpeg spp best |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for codec in corpus.CODECS:
        for q in damage.CORPUS_CODECS[codec][3]:
            rs = [r for k, r in damaged.items() if r[0]["codec"] == codec and r[0]["q"] == q]
            if not rs:
                continue
            g = [_gains(r, "alone") for r in rs]
            h, hg = _best(g, lambda s: _mode(s) == "h264")
            v, vg = _best(g, lambda s: _mode(s) == "vp9")
            near = [
                statistics.mean(x[s] for x in g)
                for s in (filters.deblock_props(30, 1, 8), vp9_props(8, 0, 8), vp9_props(12, 0, 8))
            ]
            f = [_gains(r, "ffmpeg") for r in rs]
            fd = statistics.mean(
                max(v2 for s, v2 in x.items() if s.startswith("deblock")) for x in f
            )
            fs = statistics.mean(max(v2 for s, v2 in x.items() if s.startswith("spp")) for x in f)
            md.append(
                "| %s q%d%s | %d | %s | %+.3f | %s | %+.3f | **%+.3f** | %s | %+.3f | %+.3f |"
                % (
                    codec,
                    q,
                    " (light)" if rs[0][0]["kind"] == "light" else "",
                    len(rs),
                    _short(h),
                    hg,
                    _short(v),
                    vg,
                    vg - hg,
                    " / ".join("%+.3f" % x for x in near),
                    fd,
                    fs,
                )
            )
    # Per content: each clip's best setting of either mode (an oracle per
    # clip), vp9 less h264, mean over the damaged clips of a codec family.
    families = (
        ("MPEG-2/4, MJPEG", ("mpeg2", "mpeg4", "mjpeg")),
        ("H.264", ("h264",)),
        ("H.264 with loop filter", ("h264lf",)),
    )
    md += [
        "",
        "| content: best per clip, vp9 - h264 (dB) | " + " | ".join(f for f, _ in families) + " |",
        "|---|" + "---|" * len(families),
    ]
    for c, _ in CLIPS:
        cells = []
        for _, codecs in families:
            d = []
            for r in damaged.values():
                if r[0]["content"] == c and r[0]["codec"] in codecs and r[0]["kind"] == "damaged":
                    g = _gains(r, "alone")
                    d.append(
                        max(v for s, v in g.items() if _mode(s) == "vp9")
                        - max(v for s, v in g.items() if _mode(s) == "h264")
                    )
            cells.append("%+.3f" % statistics.mean(d))
        md.append("| %s | %s |" % (c, " | ".join(cells)))
    # Clean clips: the worst PSNR-YUV of each vp9 level at block 8 / 16.
    clean = [r for r in results.values() if r[0]["kind"] == "clean"]
    md += [
        "",
        "| clean clips, worst PSNR-YUV (dB) | "
        + " | ".join("vp9 %d" % l for l in VP9_LEVELS)
        + " | h264 qp 30/8 |",
        "|---|" + "---|" * (len(VP9_LEVELS) + 1),
    ]
    for b in (8, 16):
        for s in VP9_SHARPNESS:
            cells = [
                min(
                    next(x["psnr_yuv"] for x in r if x["setting"] == vp9_props(l, s, b))
                    for r in clean
                )
                for l in VP9_LEVELS
            ]
            h264 = min(
                next(x["psnr_yuv"] for x in r if x["setting"] == filters.deblock_props(30, 1, 8))
                for r in clean
            )
            md.append(
                "| block %d, sharpness %d | %s | %.1f |"
                % (b, s, " | ".join("%.1f" % v for v in cells), h264)
            )
    # Per damage level: the chain with each deblock before the level's CDEF.
    md += [
        "",
        "| level | clips (damaged + light) | auto now: qp %s | best mode=h264 | gain "
        "| best mode=vp9 | gain | CDEF alone |" % "(rung)",
        "|---|---|---|---|---|---|---|---|",
    ]
    for level, rung in enumerate(rungs):
        rs = [r for r in results.values() if r[0]["kind"] != "clean" and r[0]["level"] == level]
        if not rs:
            md.append("| %d | 0 | | | | | | |" % level)
            continue
        stage = "chain" if cdef_of(rung) else "alone"
        g = [_gains(r, stage) for r in rs]
        light = [x for r, x in zip(rs, g) if r[0]["kind"] == "light"]
        now = (
            filters.deblock_props(rung[0], 1, 8)
            if rung[0]
            else ("cdef" if stage == "chain" else None)
        )
        now_g = statistics.mean(x[now] for x in g) if now else 0.0
        h, hg = _best(g, lambda s: s == "cdef" or _mode(s) == "h264", light)
        v, vg = _best(g, lambda s: _mode(s) == "vp9" and s != "cdef", light)
        alone = statistics.mean(x["cdef"] for x in g) if stage == "chain" else 0.0
        md.append(
            "| %d | %d (%s) | %+.3f | %s | %s | %s | %s | %+.3f |"
            % (
                level,
                len(rs),
                ", ".join(sorted({r[0]["codec"] for r in rs})),
                now_g,
                _short(h),
                _signed(hg),
                _short(v),
                _signed(vg),
                alone,
            )
        )
    return "\n".join(md) + "\n"


def run_stage(work, workdir, log, force):
    cp = corpus.Corpus(work.root)
    os.makedirs(cp.path("vp9"), exist_ok=True)
    results = measure(cp, workdir, log, force)
    with open(cp.path("vp9", "report.md"), "w") as f:
        f.write(report(results, cdef_rungs()))
    log(open(cp.path("vp9", "report.md")).read())
