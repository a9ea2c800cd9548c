"""daedalusdeblock mode=dct as the automatic settings' stronger family
(issues 13 and 16), on the estimator's corpus (corpus.py), every damaged
and light clip:

  settings  mode=dct alone at QPS with 4, 8 and 16 shifts, and with 16
            shifts followed by the CDEF rungs CDEF_RUNGS of estimate's
            ladder at CHAIN_QPS: PSNR-YUV gain per setting, into
            <work>/corpus/dctlev/<clip>.json;
  oracle    per content, the mean of each clip's best setting of a family
            (today's eight levels; dct at each shift count; dct 16 + CDEF;
            the levels or dct 16 + CDEF), beside FFmpeg's best per clip
            where the baselines stage has run;
  probe     per clip, the block grid's quantisation signature: on the
            first frame's luma, the orthonormal 8x8 DCT of the blocks on
            the grid the estimator found and of the blocks shifted by 4
            both ways; D(T) = the share of AC coefficients under T on the
            grid less that off it, for T = 2^(i/4). Listed: max D (0 on
            clean video: decoders' exact zeros sit on the grid), the
            largest T with D(T) >= max D / 4 (the dead zone's width), and
            the clip's best dct 16 qp.

  fit       a staircase over LADDER (dct 16, then dct 16 + CDEF, by
            strength) on the measure q = width / act^ACT_EXPONENT where
            max D >= ZERO_GATE (else 0: no filtering), fitted as the levels
            stage fits its own (clean clips unfiltered, light ones losing at
            most LIGHT_TOLERANCE_DB), on all clips and with each content
            left out in turn.

Prints the tables (docs/estimator.md, "A quantiser from the grid's
zeros")."""

import json
import math
import os
import statistics

import numpy as np

import auto
import content
import estimate
import filters
import levels
import yuv

def dct_props(qp, shifts):
    return "daedalusdeblock mode=dct qp=%d shifts=%d" % (qp, shifts)


def chain(qp, rung):
    return dct_props(qp, 16) + " ! " + filters.cdef_props(*estimate.CDEF_LADDER[rung])


QPS = (22, 26, 30, 34, 38, 42, 46, 48, 50, 51)
SHIFTS = (4, 8, 16)
CHAIN_QPS = (30, 38, 42, 46, 50)
CDEF_RUNGS = (1, 4, 6)
THRESHOLDS = [2 ** (i / 4) for i in range(36)]
ZERO_GATE = 0.05
ACT_EXPONENT = 0.2
LADDER = [dct_props(q, 16) for q in (22, 26, 30)] + [chain(30, 1)] + [
    dct_props(q, 16) for q in (34, 38)] + [chain(38, 1), chain(38, 4), dct_props(42, 16),
    chain(42, 1), chain(42, 4), dct_props(46, 16), chain(46, 4), chain(46, 6),
    dct_props(50, 16), chain(50, 4), chain(50, 6)]


SETTINGS = [dct_props(q, s) for s in SHIFTS for q in QPS] + [
    chain(q, r) for q in CHAIN_QPS for r in CDEF_RUNGS]


def run_settings(cp, workdir, log):
    for clip, key, out in levels.damaged_clips(cp, "dctlev"):
        table = json.load(open(out)) if os.path.exists(out) else {}
        todo = [s for s in SETTINGS if s not in table]
        if todo:
            levels.save_gains(out, levels.measure_gains(cp, clip, todo, workdir, table, 8))
            log("dct %s" % key)


def _dct_matrix():
    k = np.arange(8)
    m = np.cos((2 * k[None, :] + 1) * k[:, None] * math.pi / 16) * math.sqrt(2 / 8)
    m[0] /= math.sqrt(2)
    return m


def ac_magnitudes(y, ox, oy):
    """|AC coefficients| of the orthonormal 8x8 DCT of the whole blocks of
    plane y whose grid starts at (ox, oy)."""
    h, w = y.shape
    y = y[oy:oy + (h - oy) // 8 * 8, ox:ox + (w - ox) // 8 * 8].astype(np.float64)
    blocks = y.reshape(y.shape[0] // 8, 8, y.shape[1] // 8, 8).transpose(0, 2, 1, 3)
    m = _dct_matrix()
    c = np.einsum("ux,abxy,vy->abuv", m, blocks, m).reshape(-1, 64)
    return np.abs(c[:, 1:]).ravel()


def probe(planes, grid):
    """(max D, dead-zone width) of the first frame's luma (see above)."""
    y = planes[0][0]
    ox, oy = grid["offset_x"] % 8, grid["offset_y"] % 8
    on = ac_magnitudes(y, ox, oy)
    off = ac_magnitudes(y, (ox + 4) % 8, (oy + 4) % 8)
    d = [float((on < t).mean() - (off < t).mean()) for t in THRESHOLDS]
    top = max(d)
    return top, max(t for t, v in zip(THRESHOLDS, d) if v >= top / 4)


def _best(table, pick):
    return max(v for k, v in table.items() if pick(k))


def families(c, table):
    """Each family's best gain on the clip."""
    f = {"levels": max(c["lg"])}
    for s in SHIFTS:
        f["dct %d" % s] = _best(table, lambda k, s=s: k.endswith("shifts=%d" % s))
    f["dct 16 + CDEF"] = _best(table, lambda k: "shifts=16" in k)
    f["levels or dct 16 + CDEF"] = max(f["levels"], f["dct 16 + CDEF"])
    return f


def _ffmpeg_best(cp, key):
    path = cp.path("base", key + ".json")
    return auto.best_gain(json.load(open(path)), "ffmpeg") if os.path.exists(path) else None


def _fit(clips):
    tol = estimate.LIGHT_TOLERANCE_DB
    gains = [[0.0] + [-math.inf] * len(LADDER) if c["kind"] == "clean" else
             [g if c["kind"] != "light" or g >= -tol else -math.inf for g in c["ladder"]]
             for c in clips]
    th = estimate.staircase_fit([c["q"] for c in clips], gains,
                                [c["kind"] == "clean" for c in clips])
    floor = max(c["q"] for c in clips if c["kind"] == "clean")
    return [max(t, floor, 1e-9) for t in th]


def _rung(th, q):
    return sum(1 for t in th if q >= t)


def _fit_lines(clips):
    """The staircase on q, fitted on all clips and each content left out."""
    th = _fit(clips)
    cv = {}
    for left_out in sorted({c["content"] for c in clips}):
        t = _fit([c for c in clips if c["content"] != left_out])
        cv.update({c["key"]: _rung(t, c["q"]) for c in clips if c["content"] == left_out})
    md = ["", "| dct ladder chosen by | damaged: mean (worst) | light: mean (worst) | clean filtered |",
          "|---|---|---|---|"]
    for name, rung in (("the best rung per clip (oracle)",
                        lambda c: max(range(len(c["ladder"])), key=lambda k: c["ladder"][k])),
                       ("the staircase on q, fitted on all clips", lambda c: _rung(th, c["q"])),
                       ("the same, each content left out of its fit", lambda c: cv[c["key"]])):
        dam = [c["ladder"][rung(c)] for c in clips if c["kind"] == "damaged"]
        light = [c["ladder"][rung(c)] for c in clips if c["kind"] == "light"]
        clean = sum(1 for c in clips if c["kind"] == "clean" and rung(c))
        md.append("| %s | %+.3f (%+.3f) | %+.3f (%+.3f) | %d |" % (
            name, statistics.mean(dam), min(dam), statistics.mean(light), min(light), clean))
    md.append("")
    md.append("Thresholds on q (rung 1 first): %s" % ", ".join("%.2f" % t for t in th))
    return md


def _family_table(title, groups):
    """Per group: the mean of each family's best per clip."""
    names = list(next(iter(groups.values()))[0])
    md = ["| %s, best per clip | n | %s |" % (title, " | ".join(names)),
          "|---|---|" + "---|" * len(names)]
    for g, fs in sorted(groups.items()):
        cells = []
        for n in names:
            vals = [f[n] for f in fs if f[n] is not None]
            cells.append("%+.3f" % statistics.mean(vals) if len(vals) == len(fs) else "-")
        md.append("| %s | %d | %s |" % (g, len(fs), " | ".join(cells)))
    return md


def run_stage(cp, workdir, log):
    run_settings(cp, workdir, log)
    clips = estimate._load_clips(cp, log)
    groups, by_damage = {}, {}
    probes = []
    for c in clips:
        w, h = content.SIZES[c["size"]]
        planes = yuv.read_i420(cp.dmg(c["content"], c["size"], c["codec"], c["q"]), w, h)
        top, width = probe(planes, c)
        c["q"] = width / c["act"] ** ACT_EXPONENT if top >= ZERO_GATE else 0.0
        if c["kind"] == "clean":
            c["ladder"] = [0.0] + [-math.inf] * len(LADDER)
            probes.append("| %s | clean | %.3f | %.1f | - |" % (c["key"], top, width))
            continue
        c["lg"] = levels.level_gains(cp, c)
        table = json.load(open(cp.path("dctlev", c["key"] + ".json")))
        c["ladder"] = [0.0] + [table[s] for s in LADDER]
        sixteen = {k: v for k, v in table.items() if k.endswith("shifts=16")}
        best_qp = max(sixteen, key=sixteen.get).split()[2]
        probes.append("| %s | %s | %.3f | %.1f | %s |" % (c["key"], c["kind"], top, width, best_qp))
        if c["kind"] == "damaged":
            f = families(c, table)
            f["FFmpeg best"] = _ffmpeg_best(cp, c["key"])
            groups.setdefault("%s %s" % (c["content"], c["size"]), []).append(f)
            by_damage.setdefault(c["codec"], []).append(f)
    md = _family_table("damaged clips by content", groups) + [""] + _family_table(
        "damaged clips by damage", by_damage)
    md += ["", "| clip | kind | max D | dead zone (T at max D / 4) | best dct 16 qp |",
           "|---|---|---|---|---|"] + probes
    md += _fit_lines(clips)
    log("\n".join(md))
    return md
