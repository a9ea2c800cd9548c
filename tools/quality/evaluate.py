"""The evaluation: each filter at its tuned setting and the daedalus elements
at the recommended defaults, on every frame of every clip, scored by PSNR and
SSIM; and each filter's speed."""

import os

import filters
import yuv


def default_settings(defaults):
    """The daedalus elements at the recommended defaults, spelled out so that
    the run does not depend on the built element's."""
    deblock = "daedalusdeblock " + defaults["deblock"]
    cdef = "daedaluscdef " + defaults["cdef"]
    return {
        "daedalus-deblock (defaults)": deblock,
        "daedalus-cdef (defaults)": cdef,
        "daedalus-chain (defaults)": deblock + " ! " + cdef,
    }


def tuned_settings(best, defaults):
    """{family: (tool, setting)} for one damage, from sweep.best_per_damage."""
    out = {}
    for fam, setting in best.items():
        if fam == "daedalus-chain":
            setting = best["daedalus-deblock"] + " ! " + setting
        tool = "gst" if fam.startswith("daedalus") else "ffmpeg"
        out[fam] = (tool, setting)
    for fam, setting in default_settings(defaults).items():
        out[fam] = ("gst", setting)
    return out


def evaluate_clip(ref_path, dmg_path, w, h, settings, workdir, extra, old):
    """Rows with PSNR and SSIM per plane for the damaged clip ("none") and
    each of settings ({family: (tool, setting)}), every frame; rows of `old`
    ({(family, setting): row}) are taken as they are."""
    ref = yuv.read_i420(ref_path, w, h)
    dmg = yuv.read_i420(dmg_path, w, h)
    rows = [
        old.get(("none", "")) or dict(extra, family="none", setting="", **yuv.compare(ref, dmg))
    ]
    rows += [old[(f, s)] for f, (_, s) in settings.items() if (f, s) in old]
    for tool in ("gst", "ffmpeg"):
        fams = [f for f, (t, s) in settings.items() if t == tool and (f, s) not in old]
        ss = [settings[f][1] for f in fams]
        for fam, (setting, out) in zip(fams, filters.run_many(tool, ss, dmg_path, w, h, workdir)):
            rows.append(
                dict(
                    extra, family=fam, setting=setting, **yuv.compare(ref, yuv.read_i420(out, w, h))
                )
            )
            os.remove(out)
    return rows


# A filter's time over the process without it, below which it is lost in
# the noise of start-up and reading (seconds).
MIN_TIMED = 0.05


def speed(settings, src, w, h, frames, repeats=3):
    """{family: {"wall": fps, "cpu": fps per CPU second}}: each setting alone
    on src (`frames` frames) into /dev/null, best of `repeats`, less the same
    process without the filter (start-up, reading the file); None where the
    difference is below MIN_TIMED."""
    res = {}
    for fam, (tool, setting) in settings.items():
        best = None
        for _ in range(repeats):
            (wall, cpu), (wall0, cpu0) = filters.timed(tool, setting, src, w, h, os.devnull)
            t = (wall - wall0, cpu - cpu0)
            best = t if best is None else (min(best[0], t[0]), min(best[1], t[1]))
        res[fam] = {
            k: frames / t if t >= MIN_TIMED else None for k, t in zip(("wall", "cpu"), best)
        }
    return res
