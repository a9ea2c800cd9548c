"""The auto-strength level staircase (issue 16): every damaged and light
corpus clip through the eight levels' settings (kernels/tuning/
auto_strength.cc), and the staircase on the damage measure m = blk^2 / act
(docs/spec.md, "Damage estimate") fitted to them, with each content left
out in turn. Writes <work>/corpus/lev/<clip>.json (gain per setting) and
prints the thresholds for kDamageLevelStart. See docs/estimator.md."""

import json
import math
import os
import statistics

import baselines
import content
import damage
import estimate
import filters
import yuv

# Per level: (deblock ladder index, CDEF ladder index) of estimate's
# ladders, as kRungs in kernels/tuning/auto_strength.cc.
LEVELS = ((0, 0), (0, 1), (1, 1), (2, 1), (2, 4), (3, 4), (4, 6), (5, 6))
HALF_FOR_BLOCK4 = 0.1  # kHalfForBlock4
MIN_BLK = 5.0  # kDamageMinBlk (5/16 sample) in the prototype's 1/16


def measure(blk, act):
    """m in 1/256 sample from the prototype's blk and act (1/16 sample):
    (16 blk)^2 / (16 act)."""
    return 16 * blk * blk / act if blk >= MIN_BLK and act > 0 else 0.0


def damaged_clips(cp, folder):
    """(content, size, codec, q), name and result file in `folder` of each
    damaged and light corpus clip, the 720p ones first."""
    for c, size, codec, q, kind in sorted(cp.clips(), key=lambda k: k[1] != "720p"):
        if codec != "clean":
            key = "%s-%s-%s" % (c, size, damage.label(codec, q))
            yield (c, size, codec, q), key, cp.path(folder, key + ".json")


def run_levels(cp, workdir, log):
    for clip, key, out in damaged_clips(cp, "lev"):
        if os.path.exists(out):
            continue
        settings = sorted(
            {
                estimate.setting(db, b, cd)
                for db, cd in LEVELS[1:]
                for b in sorted({baselines.grid_of(clip[2]), 8})
            }
        )
        save_gains(out, measure_gains(cp, clip, settings, workdir, {}, 12))
        log("levels %s" % key)


def measure_gains(cp, clip, settings, workdir, table, batch):
    """Adds to `table` the PSNR-YUV gain of each gst setting on the damaged
    clip (content, size, codec, q); returns it."""
    c, size, codec, q = clip
    w, h = content.SIZES[size]
    ref = yuv.read_i420(cp.src(c, size), w, h)
    src = cp.dmg(c, size, codec, q)
    base = yuv.compare(ref, yuv.read_i420(src, w, h), ssim=False)["psnr_yuv"]
    for s, o in filters.run_many("gst", settings, src, w, h, workdir, batch=batch):
        table[s] = yuv.compare(ref, yuv.read_i420(o, w, h), ssim=False)["psnr_yuv"] - base
        os.remove(o)
    return table


def save_gains(path, table):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(table, f)


def level_gains(cp, c):
    """The clip's PSNR-YUV gain at each level, or None (clean)."""
    if c["kind"] == "clean":
        return None
    with open(cp.path("lev", c["key"] + ".json")) as f:
        t = json.load(f)
    block = estimate.block_for(c, HALF_FOR_BLOCK4)
    return [t[s] if s else 0.0 for s in (estimate.setting(db, block, cd) for db, cd in LEVELS)]


def clean_frame_floor(cp, clips):
    """The largest m of any single frame of a clean clip."""
    top = 0.0
    for c in clips:
        if c["kind"] != "clean":
            continue
        w, h = content.SIZES[c["size"]]
        planes = yuv.read_i420(cp.dmg(c["content"], c["size"], c["codec"], c["q"]), w, h)
        for i in range(planes[0].shape[0]):
            g = estimate.grid(*estimate.profiles(planes[0][i]))
            top = max(top, measure(g["blk"], g["act"]))
    return top


def fit(clips, floor):
    """Thresholds t[1..7]: the staircase maximising the summed gain; clean
    clips get level 0, light ones may lose at most LIGHT_TOLERANCE_DB."""
    tol = estimate.LIGHT_TOLERANCE_DB
    gains = [
        [0.0] + [-math.inf] * 7
        if c["kind"] == "clean"
        else [g if c["kind"] != "light" or g >= -tol else -math.inf for g in c["lg"]]
        for c in clips
    ]
    th = estimate.staircase_fit(
        [c["m"] for c in clips], gains, [c["kind"] == "clean" for c in clips]
    )
    return [max(t, floor) for t in th]


def _level(th, m):
    return sum(1 for t in th if m >= t)


def _line(name, clips, level_of):
    g = {c["key"]: c["lg"][level_of(c)] for c in clips if c["kind"] != "clean"}
    dam = [g[c["key"]] for c in clips if c["kind"] == "damaged"]
    light = [g[c["key"]] for c in clips if c["kind"] == "light"]
    clean = sum(1 for c in clips if c["kind"] == "clean" and level_of(c))
    return "| %s | %+.3f (%+.3f) | %+.3f | %d |" % (
        name,
        statistics.mean(dam),
        min(dam),
        min(light),
        clean,
    )


def run_stage(cp, workdir, log):
    run_levels(cp, workdir, log)
    clips = estimate._load_clips(cp, log)
    for c in clips:
        c["m"] = measure(c["blk"], c["act"])
        c["lg"] = level_gains(cp, c)
    floor = clean_frame_floor(cp, clips)
    th = fit(clips, floor)
    cv = {}
    for left_out in sorted({c["content"] for c in clips}):
        t = fit([c for c in clips if c["content"] != left_out], floor)
        cv.update({c["key"]: _level(t, c["m"]) for c in clips if c["content"] == left_out})
    md = [
        "Thresholds (kDamageLevelStart, 1/256 sample): %s; clean-frame floor %.2f"
        % ([math.ceil(t) for t in th], floor),
        "",
        "| levels chosen by | damaged: mean (worst) | light: worst | clean filtered |",
        "|---|---|---|---|",
        _line(
            "the best level per clip (oracle)",
            clips,
            lambda c: 0 if c["lg"] is None else max(range(8), key=lambda k: c["lg"][k]),
        ),
        _line("the staircase on m, fitted on all clips", clips, lambda c: _level(th, c["m"])),
        _line("the same, each content left out of its fit", clips, lambda c: cv[c["key"]]),
    ]
    log("\n".join(md))
    return md
