"""Choosing element defaults from the sweep. A setting passes when it loses
at most TOLERANCE_DB on every lightly compressed clip and keeps every clean
clip above CLEAN_MIN_DB. Each element's default is its passing setting that
gains most on damaged clips (block-size 8 for deblock). The chain of the two
defaults is scored too, and the best pair whose chain passes as well, for
comparison: the test is on each element alone because a default is what one
element does untuned."""

import statistics

import sweep
import yuv

# A PSNR loss this small (on light clips of 42-49 dB) is far below what
# anyone can see; a setting that loses more on any light clip is not a default.
TOLERANCE_DB = 0.1
# Clean clips have no damage to measure a loss against (their PSNR is
# infinite): the filtered clip must stay at least this close to the clean
# one, closer than the lightest compression tried (42-49 dB).
CLEAN_MIN_DB = 50.0
FAMILIES = ("daedalus-deblock", "daedalus-cdef", "defaults-chain")


def _stats(gains, kinds):
    """{(family, setting): (mean damaged gain, worst light gain, worst clean
    PSNR)} over the clips where the setting was scored, for the daedalus
    settings scored on clips of all three kinds."""
    per = {}
    for key, g in gains.items():
        for fs, v in g.items():
            if fs[0] in FAMILIES:
                per.setdefault(fs, []).append((kinds[key], v))
    out = {}
    for fs, kv in per.items():
        dmg = [v for k, v in kv if k == "damaged"]
        light = [v for k, v in kv if k == "light"]
        # A clean clip's gain is the output's PSNR less yuv.psnr's cap.
        clean = [yuv.PSNR_CAP + v for k, v in kv if k == "clean"]
        if dmg and light and clean:
            out[fs] = (statistics.mean(dmg), min(light), min(clean))
    return out


def passes(stat):
    return stat[1] >= -TOLERANCE_DB and stat[2] >= CLEAN_MIN_DB


def _ranked(stats, fam, keep=lambda s: True, n=12):
    """The family's best settings: passing ones first, each group by mean
    damaged gain; [(mean, worst light, worst clean, setting)]."""
    rows = [st + (s,) for (f, s), st in stats.items() if f == fam and keep(s)]
    rows.sort(key=lambda r: (not passes(r), -r[0]))
    return rows[:n]


def _props(setting):
    return " ".join(setting.split()[1:])


def choose(rows):
    kinds = {(r["content"], r["codec"], r["q"]): r["kind"] for r in rows}
    gains = sweep.gains(rows)
    stats = _stats(gains, kinds)
    deblock_ranked = _ranked(stats, "daedalus-deblock", lambda s: "block-size=8" in s)
    cdef_ranked = _ranked(stats, "daedalus-cdef")
    deblock, cdef = deblock_ranked[0][3], cdef_ranked[0][3]
    pairs = []
    for d in sweep.DEFAULT_DEBLOCKS:
        for c in sweep.DEFAULT_CDEFS:
            keys = [
                ("daedalus-deblock", d),
                ("daedalus-cdef", c),
                ("defaults-chain", d + " ! " + c),
            ]
            if all(k in stats for k in keys):
                ok = all(passes(stats[k]) for k in keys)
                pairs.append((not ok, -stats[keys[2]][0], d, c))
    pairs.sort()
    strict = pairs[0][2:]
    chain = ("defaults-chain", deblock + " ! " + cdef)
    # Per codec, the grid that serves the chosen qp and bs best.
    qp_bs = deblock.replace(" block-size=8", "")
    block = {}
    for codec in sorted({k[1] for k in gains}):
        scores = {}
        for b in sweep.blocks_for(codec):
            fs = ("daedalus-deblock", "%s block-size=%d" % (qp_bs, b))
            vals = [
                g[fs]
                for k, g in gains.items()
                if k[1] == codec and kinds[k] == "damaged" and fs in g
            ]
            if vals:
                scores[b] = statistics.mean(vals)
        block[codec] = max(scores, key=scores.get) if scores else 8
    return {
        "settings": {"deblock": _props(deblock), "cdef": _props(cdef)},
        "block": block,
        "tolerance_db": TOLERANCE_DB,
        "clean_min_db": CLEAN_MIN_DB,
        "deblock_ranked": deblock_ranked,
        "cdef_ranked": cdef_ranked,
        "chain": stats[chain] + (chain[1],) if chain in stats else None,
        "strict_pair": [
            stats[("daedalus-deblock", strict[0])] + (strict[0],),
            stats[("daedalus-cdef", strict[1])] + (strict[1],),
            stats[("defaults-chain", " ! ".join(strict))] + (" ! ".join(strict),),
        ],
    }
