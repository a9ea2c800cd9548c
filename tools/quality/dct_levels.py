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
  probe     per clip, daedalusdeblock's own estimate after the clip's
            last frame (its LOG line): the quantiser probe's zero_excess
            (the share of small DCT coefficients on the block grid beyond
            that off it: 0 on clean video, a decoder's zeros sit on its
            grid), dead_zone_qp and the quantiser measure (docs/spec.md,
            "Quantiser probe"), and the level the step measure gives.

  fit       for each shift count of SHIFT_LADDERS, a staircase over the
            dct ladder ladder() (dct, then dct + CDEF, by strength) on the
            quantiser measure where zero_excess passes the element's gate
            (else rung 0: the level's settings), fitted as the levels stage
            fits its own (clean clips unfiltered, light ones losing at most
            LIGHT_TOLERANCE_DB), on all clips and with each content left
            out in turn; the thresholds for kDctRungStart (1/16 qp).

Prints the tables (docs/estimator.md, "A quantiser from the grid's
zeros")."""

import json
import math
import os
import re
import statistics
import subprocess

import auto
import content
import estimate
import filters
import levels


def dct_props(qp, shifts):
    return "daedalusdeblock mode=dct qp=%d shifts=%d" % (qp, shifts)


def chain(qp, rung, shifts=16):
    return dct_props(qp, shifts) + " ! " + filters.cdef_props(*estimate.CDEF_LADDER[rung])


QPS = (22, 26, 30, 34, 38, 42, 46, 48, 50, 51)
SHIFTS = (4, 8, 16)
CHAIN_QPS = (30, 38, 42, 46, 50)
CDEF_RUNGS = (1, 4, 6)
CODED_GATE = 2000  # kCodedGate, 1/65536
SHIFT_LADDERS = (4, 8, 16)


def ladder(shifts):
    """Rungs 1.. of the dct ladder (kDctLadder in kernels/tuning/
    auto_strength.cc), as settings."""
    d = lambda q: dct_props(q, shifts)
    c = lambda q, r: chain(q, r, shifts)
    return [
        d(22),
        d(26),
        d(30),
        c(30, 1),
        d(34),
        d(38),
        c(38, 1),
        c(38, 4),
        d(42),
        c(42, 1),
        c(42, 4),
        d(46),
        c(46, 4),
        c(46, 6),
        d(50),
        c(50, 4),
        c(50, 6),
    ]


SETTINGS = [dct_props(q, s) for s in SHIFTS for q in QPS] + [
    chain(q, r, s) for s in SHIFT_LADDERS for q in CHAIN_QPS for r in CDEF_RUNGS
]


def run_settings(cp, workdir, log):
    for clip, key, out in levels.damaged_clips(cp, "dctlev"):
        table = json.load(open(out)) if os.path.exists(out) else {}
        todo = [s for s in SETTINGS if s not in table]
        if todo:
            levels.save_gains(out, levels.measure_gains(cp, clip, todo, workdir, table, 8))
            log("dct %s" % key)


_LOG_LINE = re.compile(
    r"frame (\d+): damage level (\d+) \(measure (\d+)/256\), "
    r"rung (\d+) \(quantiser (\d+)/16, dead zone qp (\d+), "
    r"zero excess (\d+)/65536\)"
)


def element_probe(cp, c):
    """daedalusdeblock's estimate after the clip's last frame, from its LOG
    line: level, quantiser (1/16 qp), dead_zone_qp, zero_excess."""
    w, h = content.SIZES[c["size"]]
    env = dict(os.environ, GST_DEBUG="daedalusdeblock:6", GST_DEBUG_NO_COLOR="1")
    src = cp.dmg(c["content"], c["size"], c["codec"], c["q"])
    cmd = filters.raw_source(src, w, h) + ["!", "daedalusdeblock", "!", "fakesink"]
    log = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stderr
    last = _LOG_LINE.findall(log)[-1]
    frames, level, _, _, quantiser, dead_zone, excess = map(int, last)
    return dict(
        frames=frames, level=level, quantiser=quantiser, dead_zone_qp=dead_zone, zero_excess=excess
    )


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


def _fit(clips, shifts):
    tol = estimate.LIGHT_TOLERANCE_DB
    gains = [
        [0.0] + [-math.inf] * (len(c["ladders"][shifts]) - 1)
        if c["kind"] == "clean"
        else [g if c["kind"] != "light" or g >= -tol else -math.inf for g in c["ladders"][shifts]]
        for c in clips
    ]
    # Clips whose gate is closed stay on rung 0, as the element keeps them.
    th = estimate.staircase_fit(
        [_feature(c) for c in clips],
        gains,
        [c["kind"] == "clean" or _feature(c) < 0 for c in clips],
    )
    return [max(t, 0) for t in th]


def _feature(c):
    return c["probe"]["quantiser"] if c["probe"]["zero_excess"] >= CODED_GATE else -1


def _rung(th, c):
    return sum(1 for t in th if _feature(c) >= t)


def _fit_lines(clips, shifts):
    """The staircase on the quantiser, fitted on all clips and each content
    left out, for the ladder at `shifts`."""
    th = _fit(clips, shifts)
    cv = {}
    for left_out in sorted({c["content"] for c in clips}):
        t = _fit([c for c in clips if c["content"] != left_out], shifts)
        cv.update({c["key"]: _rung(t, c) for c in clips if c["content"] == left_out})
    md = [
        "",
        "dct ladder at %d shifts (rung 0: the level's settings):" % shifts,
        "",
        "| chosen by | damaged: mean (worst) | light: mean (worst) | clean filtered |",
        "|---|---|---|---|",
    ]
    ladder_of = lambda c: c["ladders"][shifts]
    for name, rung in (
        (
            "the best rung per clip (oracle)",
            lambda c: max(range(len(ladder_of(c))), key=lambda k: ladder_of(c)[k]),
        ),
        ("the staircase, fitted on all clips", lambda c: _rung(th, c)),
        ("the same, each content left out of its fit", lambda c: cv[c["key"]]),
        ("the levels alone (rung 0 everywhere)", lambda c: 0),
    ):
        dam = [ladder_of(c)[rung(c)] for c in clips if c["kind"] == "damaged"]
        light = [ladder_of(c)[rung(c)] for c in clips if c["kind"] == "light"]
        clean = sum(1 for c in clips if c["kind"] == "clean" and rung(c))
        md.append(
            "| %s | %+.3f (%+.3f) | %+.3f (%+.3f) | %d |"
            % (name, statistics.mean(dam), min(dam), statistics.mean(light), min(light), clean)
        )
    md.append("")
    md.append(
        "kDctRungStart (1/16 qp, rung 1 first): {%s}"
        % ", ".join("%d" % math.ceil(t) if math.isfinite(t) else "INF" for t in th)
    )
    return md


def _family_table(title, groups):
    """Per group: the mean of each family's best per clip."""
    names = list(next(iter(groups.values()))[0])
    md = [
        "| %s, best per clip | n | %s |" % (title, " | ".join(names)),
        "|---|---|" + "---|" * len(names),
    ]
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
        c["probe"] = p = element_probe(cp, c)
        row = "| %s | %s | %d | %d | %d | %d |" % (
            c["key"],
            c["kind"],
            p["zero_excess"],
            p["dead_zone_qp"],
            p["quantiser"],
            p["level"],
        )
        if c["kind"] == "clean":
            c["ladders"] = {s: [0.0] + [-math.inf] * len(ladder(s)) for s in SHIFT_LADDERS}
            probes.append(row + " - |")
            continue
        table = json.load(open(cp.path("dctlev", c["key"] + ".json")))
        c["lg"] = levels.level_gains(cp, c)
        c["ladders"] = {
            s: [c["lg"][p["level"]]] + [table[k] for k in ladder(s)] for s in SHIFT_LADDERS
        }
        sixteen = {k: v for k, v in table.items() if k.endswith("shifts=16")}
        probes.append(row + " %s |" % max(sixteen, key=sixteen.get).split()[2])
        if c["kind"] == "damaged":
            f = families(c, table)
            f["FFmpeg best"] = _ffmpeg_best(cp, c["key"])
            groups.setdefault("%s %s" % (c["content"], c["size"]), []).append(f)
            by_damage.setdefault(c["codec"], []).append(f)
    md = (
        _family_table("damaged clips by content", groups)
        + [""]
        + _family_table("damaged clips by damage", by_damage)
    )
    md += [
        "",
        "| clip | kind | zero excess (1/65536) | dead zone qp | quantiser (1/16 qp) "
        "| level | best dct 16 qp |",
        "|---|---|---|---|---|---|---|",
    ] + probes
    for shifts in SHIFT_LADDERS:
        md += _fit_lines(clips, shifts)
    log("\n".join(md))
    return md
