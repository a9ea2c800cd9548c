"""Prototype of the damage estimator (issue 16): measures each frame's block
grid, blocking and ringing with integer sums a one-pass C++ kernel can
compute, and maps the measures to daedalusdeblock and daedaluscdef settings
by monotone staircases fitted on the corpus (corpus.py, baselines.py).
See docs/estimator.md.

Measures, per plane of a frame (all sums of integers; the prototype divides
at the end, the C++ version can keep fixed point):
  profiles  C_h[x] = sum over rows of min(|p[y][x+1] - p[y][x]|, CLIP): the
            step between columns x and x+1; C_v[y] the same across rows.
  excess    E(s, phi) = mean of C at x = phi (mod s) less the mean of its two
            neighbours x - 1 and x + 1, per sample: how much larger a step is
            on a candidate grid line than just beside it (Muijs & Kirenko's
            normalisation by neighbours, with a phase search).
  grid      phi* = argmax E(8, phi) per direction; spacing 4 when the lines
            half way between (phi* + 4) carry at least half the excess, 16
            when one of the two 16-phases carries under half of the other's,
            else 8. The grid's offset is (phi* + 1) mod spacing.
  blocking  BLK = the excess on the detected grid (mean of both directions),
            in 1/16 sample steps; BLKR = BLK over the picture's mean
            (clipped) step, in 1/1000.
  ringing   RING = over the 8x8 blocks (on the detected grid) whose largest
            step inside is at least EDGE, the mean of min over the four
            directions 0/45/90/135 of the mean step inside the block along
            that direction, in 1/16: an edge's own steps vanish along it, so
            what is left is ringing (or texture).
  flat      FLAT = the share of 8x8 blocks whose steps inside are all <= 1.
"""

import math
import os
import statistics

import numpy as np

import baselines
import content
import damage
import filters
import sweep
import yuv

CLIP = 32  # a step larger than this is an edge of the picture, not a block's
EDGE = 48  # a block with a step this large holds an edge (rings around it)
FLAT = 1  # a block whose steps are all 0 or 1 is (nearly) constant: all
# but its DC quantised away, or a flat area of the picture
SCALE = 16  # fixed point of the reported measures

# Setting ladders the staircases choose from (the baselines' grid, weakest
# first; index 0 filters nothing).
DEBLOCK_LADDER = (0,) + baselines.DEBLOCK_QPS
CDEF_LADDER = ((0, 0, 0),) + baselines.CDEFS
# Light and "already filtered" clips may lose at most this much PSNR-YUV
# under the fitted mapping; clean ones must map to nothing at all.
LIGHT_TOLERANCE_DB = 0.05


# --- measuring ---------------------------------------------------------------


def profiles(plane):
    """(C_h, C_v, rows, cols) of one plane (uint8 2-D)."""
    a = plane.astype(np.int16)
    dh = np.minimum(np.abs(a[:, 1:] - a[:, :-1]), CLIP)
    dv = np.minimum(np.abs(a[1:, :] - a[:-1, :]), CLIP)
    return (
        dh.sum(axis=0, dtype=np.int64),
        dv.sum(axis=1, dtype=np.int64),
        plane.shape[0],
        plane.shape[1],
    )


def excess(c, n, s, phi):
    """E(s, phi) of profile c (sums over n samples each), per sample."""
    x = np.arange(phi, len(c), s)
    x = x[(x >= 1) & (x < len(c) - 1)]
    on = c[x].sum()
    beside = (c[x - 1].sum() + c[x + 1].sum()) / 2
    return (on - beside) / (len(x) * n)


def grid_1d(c, n):
    """(phase, E at spacing 8 per phase, E halfway, E at the two 16-phases)."""
    e8 = [excess(c, n, 8, p) for p in range(8)]
    ph = int(np.argmax(e8))
    return ph, e8, excess(c, n, 8, (ph + 4) % 8), (excess(c, n, 16, ph), excess(c, n, 16, ph + 8))


def grid(ch, cv, rows, cols):
    """{spacing, offset_x, offset_y, blk}: the block grid and its excess."""
    px, e8x, hx, sx = grid_1d(ch, rows)
    py, e8y, hy, sy = grid_1d(cv, cols)
    on = (e8x[px] + e8y[py]) / 2
    half = (hx + hy) / 2
    s16 = (sx[0] + sy[0], sx[1] + sy[1])
    spacing = 8
    if on > 0 and half >= on / 2:
        spacing = 4
    elif on > 0 and min(s16) < max(s16) / 2:
        spacing = 16
    if spacing == 4:
        blk = (on + half) / 2
        ox, oy = (px + 1) % 4, (py + 1) % 4
    elif spacing == 16:
        blk = max(s16) / 2
        ox = (px + 1 + (8 if sx[1] > sx[0] else 0)) % 16
        oy = (py + 1 + (8 if sy[1] > sy[0] else 0)) % 16
    else:
        blk = on
        ox, oy = (px + 1) % 8, (py + 1) % 8
    # The picture's mean step (both directions), to normalise blk by.
    act = (ch.sum() / (len(ch) * rows) + cv.sum() / (len(cv) * cols)) / 2
    return dict(
        spacing=spacing,
        offset_x=ox,
        offset_y=oy,
        blk=blk * SCALE,
        half=half / on if on > 0 else 0.0,
        act=act * SCALE,
        blkr=1000 * blk / act if act > 0 else 0.0,
    )


def ringing(plane, ox, oy):
    """RING, and the share of edge and of flat blocks, of one plane on the
    8x8 blocks from (ox, oy)."""
    a = plane.astype(np.int16)[oy:, ox:]
    h, w = a.shape[0] // 8 * 8, a.shape[1] // 8 * 8
    b = a[:h, :w].reshape(h // 8, 8, w // 8, 8).transpose(0, 2, 1, 3)
    # Steps inside each block along 0, 90, 45 and 135 degrees.
    d = (
        np.abs(b[..., :, 1:] - b[..., :, :-1]),
        np.abs(b[..., 1:, :] - b[..., :-1, :]),
        np.abs(b[..., 1:, :-1] - b[..., :-1, 1:]),
        np.abs(b[..., 1:, 1:] - b[..., :-1, :-1]),
    )
    mx = np.maximum(d[0].max(axis=(2, 3)), d[1].max(axis=(2, 3)))
    # An edge's own steps vanish along its direction; what is left along the
    # quietest direction is ringing (or texture).
    quiet = np.minimum.reduce([x.mean(axis=(2, 3)) for x in d])
    edge, flat = mx >= EDGE, mx <= FLAT
    return dict(
        ring=float(quiet[edge].mean()) * SCALE if edge.any() else 0.0,
        edge_blocks=float(edge.mean()),
        flat_blocks=float(flat.mean()),
    )


def measure_frame(planes, i):
    """Per-plane measures of frame i; luma's grid is the frame's grid."""
    out = {}
    for name, p in zip(yuv.PLANES, planes):
        g = grid(*profiles(p[i]))
        out[name] = g
    g = out["y"]
    out["y"].update(ringing(planes[0][i], g["offset_x"] % 8, g["offset_y"] % 8))
    return out


def measure_clip(planes, frames=None):
    """Per-frame measures and the clip's: the grid from the profiles summed
    over frames (the temporal smoothing a running sum gives), the blocking
    and ringing as means over frames."""
    n = planes[0].shape[0] if frames is None else frames
    per = [measure_frame(planes, i) for i in range(n)]
    acc = {}
    for name, p in zip(yuv.PLANES, planes):
        prof = [profiles(p[i]) for i in range(n)]
        ch = sum(x[0] for x in prof)
        cv = sum(x[1] for x in prof)
        acc[name] = grid(ch, cv, prof[0][2] * n, prof[0][3] * n)
    clip = dict(acc["y"])
    clip["blk_u"], clip["blk_v"] = acc["u"]["blk"], acc["v"]["blk"]
    clip["blkr_frames"] = [f["y"]["blkr"] for f in per]
    clip["ring"] = statistics.mean(f["y"]["ring"] for f in per)
    clip["flat"] = statistics.mean(f["y"]["flat_blocks"] for f in per) * 1000
    clip["edge_blocks"] = statistics.mean(f["y"]["edge_blocks"] for f in per)
    clip["blk_frames"] = [f["y"]["blk"] for f in per]
    clip["spacing_frames"] = [f["y"]["spacing"] for f in per]
    clip["offset_frames"] = [(f["y"]["offset_x"], f["y"]["offset_y"]) for f in per]
    return clip


# --- the mapping -------------------------------------------------------------


def staircase_fit(features, gains, forced_zero):
    """The monotone staircase (feature -> ladder index, non-decreasing) that
    maximises the summed gain over clips. gains[i][k]: clip i's gain at
    index k (-inf where not allowed); forced_zero[i]: clip i must get 0.
    Returns thresholds t[1..K-1]: index k from feature >= t[k] on, each placed
    at the lowest feature of a clip that the fit gave index >= k (the most
    conservative place inside the gap)."""
    order = sorted(range(len(features)), key=lambda i: features[i])
    K = len(gains[order[0]])
    NEG = -1e18
    best = np.full((len(order), K), NEG)
    back = np.zeros((len(order), K), dtype=int)
    for j, i in enumerate(order):
        g = np.array(
            [
                NEG if (forced_zero[i] and k) or not math.isfinite(gains[i][k]) else gains[i][k]
                for k in range(K)
            ]
        )
        if j == 0:
            best[j] = g
            continue
        if features[i] == features[order[j - 1]]:
            # Equal features get the same index: the thresholds cannot
            # tell them apart.
            best[j] = g + best[j - 1]
            back[j] = np.arange(K)
            continue
        # Running maximum of the previous row over k' <= k.
        run = np.maximum.accumulate(best[j - 1])
        arg = np.zeros(K, dtype=int)
        m = 0
        for k in range(K):
            if best[j - 1][k] > best[j - 1][m]:
                m = k
            arg[k] = m
        best[j] = g + run
        back[j] = arg
    k = int(np.argmax(best[-1]))
    assign = [0] * len(order)
    for j in range(len(order) - 1, -1, -1):
        assign[j] = k
        k = back[j][k]
    thresholds = [math.inf] * K
    for j, i in enumerate(order):
        for k in range(1, assign[j] + 1):
            thresholds[k] = min(thresholds[k], features[i])
    # Monotone: an index that no clip needed takes the next one's threshold.
    for k in range(K - 1, 0, -1):
        if k + 1 < K:
            thresholds[k] = min(thresholds[k], thresholds[k + 1])
    return thresholds[1:]


def apply_staircase(thresholds, f):
    return sum(1 for t in thresholds if f >= t)


# Candidates for the share of the grid's excess that the lines halfway
# between its lines must carry for deblocking at block-size 4 (0.5 is where
# the grid detection itself calls the spacing 4); the fit picks one.
HALF_CANDIDATES = (0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1)


def block_for(c, half_min):
    """The deblock grid for a clip's measures: 4 when the halfway lines
    carry at least half_min of the excess, else 8 (16 filters as 8). The
    baselines tried block 4 only on H.264 clips: elsewhere 8 stands in."""
    b = 4 if c["spacing"] == 4 or c.get("half", 0.0) >= half_min else 8
    return b if b in c["blocks"] else 8


def setting(db, block, cd):
    parts = []
    if db:
        parts.append(filters.deblock_props(DEBLOCK_LADDER[db], 1, block))
    if cd:
        parts.append(filters.cdef_props(*CDEF_LADDER[cd]))
    return " ! ".join(parts)


def gain_table(rows):
    """{setting: PSNR-YUV gain} of one clip's baseline rows (gst only)."""
    base = next(r for r in rows if r["tool"] == "none")["psnr_yuv"]
    return {
        r["setting"]: r["psnr_yuv"] - base
        for r in rows
        if r["tool"] == "gst" and r.get("stage") != "best"
    }


def _gain(table, db, block, cd):
    s = setting(db, block, cd)
    if not s:
        return 0.0
    return table.get(s, -math.inf)


def fit(clips, fdb="blk", fcd="ring", rounds=3, tol=LIGHT_TOLERANCE_DB):
    """fit_half for each of HALF_CANDIDATES; the one with the largest
    summed gain over the clips. tol: the loss allowed on light clips."""
    best = None
    for half in HALF_CANDIDATES:
        m = fit_half(clips, fdb, fcd, rounds, half, tol)
        total = sum(r["gain"] for r in score(m, clips) if r["gain"] is not None)
        if best is None or total > best[0] + 1e-9:
            best = (total, m)
    return best[1]


def _feature_names(f):
    """'blk' -> ['blk']; 'blk&blkr' -> ['blk', 'blkr'] (the rung is the
    smaller of the two staircases': strong filtering needs both)."""
    return f.split("&")


def rung(stairs, f, c):
    return min(apply_staircase(t, c[n]) for t, n in zip(stairs, _feature_names(f)))


def _fit_stairs(clips, f, gain_at, forced, floor, K, rounds=2):
    """Staircases for measure f (one, or two combined by min) maximising
    sum of gain_at(i, rung)."""
    names = _feature_names(f)
    stairs = [[math.inf] * (K - 1) for _ in names]
    stairs[0] = [-math.inf] * (K - 1)  # until fitted: no cap from the others
    for j in range(1, len(names)):
        stairs[j] = [-math.inf] * (K - 1)
    for _ in range(rounds if len(names) > 1 else 1):
        for j, n in enumerate(names):
            others = [
                min([apply_staircase(t, c[m]) for t, m in zip(stairs, names) if m != n] or [K - 1])
                for c in clips
            ]
            g = [[gain_at(i, min(k, others[i])) for k in range(K)] for i in range(len(clips))]
            stairs[j] = [max(t, floor[n]) for t in staircase_fit([c[n] for c in clips], g, forced)]
    return stairs


def fit_half(clips, fdb, fcd, rounds, half, tol):
    """Fits the two staircases on clips (dicts with the measures, 'kind',
    'blocks', 'table'; clean clips have no table), deblocking at block 4
    from `half` on. Coordinate ascent: the deblock staircase with CDEF
    fixed, then CDEF's with deblock fixed."""

    def allowed(c, g):
        if c["kind"] in ("light", "clean") and g < -tol:
            return -math.inf
        return g

    def table_of(c, db, cd):
        if misaligned(c):
            db = 0
        if c["kind"] == "clean":
            return 0.0 if db == 0 and cd == 0 else -math.inf
        return allowed(c, _gain(c["table"], db, block_for(c, half), cd))

    forced = [c["kind"] == "clean" for c in clips]
    cds = [0] * len(clips)
    floor = {n: clean_floor(clips, n) for f in (fdb, fcd) for n in _feature_names(f)}
    sdb = scd = None
    for _ in range(rounds):
        sdb = _fit_stairs(
            clips,
            fdb,
            lambda i, k: table_of(clips[i], k, cds[i]),
            forced,
            floor,
            len(DEBLOCK_LADDER),
        )
        dbs = [rung(sdb, fdb, c) for c in clips]
        scd = _fit_stairs(
            clips, fcd, lambda i, k: table_of(clips[i], dbs[i], k), forced, floor, len(CDEF_LADDER)
        )
        cds = [rung(scd, fcd, c) for c in clips]
    return dict(fdb=fdb, fcd=fcd, deblock=sdb, cdef=scd, floor=floor, half=half, tol=tol)


def clean_floor(clips, f):
    """The safety margin: no step starts below the largest value the
    measure takes on any single frame of a clean clip (for blk; a frame's
    value scatters more than a clip's mean), or below 1.25 times the largest
    clip value for the other measures (kept per clip only)."""
    clean = [c for c in clips if c["kind"] == "clean"]
    if f in ("blk", "blkr"):
        return max(b for c in clean for b in c[f + "_frames"])
    return 1.25 * max(c[f] for c in clean)


def misaligned(c):
    """A grid not at offset 0 (mod 8, or 4 when the spacing is 4): the
    element has no grid offset, so it would deblock the wrong lines."""
    m = 4 if c["spacing"] == 4 else 8
    return bool(c["offset_x"] % m or c["offset_y"] % m)


def predict(mapping, c):
    """(deblock index, block, cdef index) for a clip's measures; no
    deblocking on a misaligned grid."""
    db = rung(mapping["deblock"], mapping["fdb"], c)
    if misaligned(c):
        db = 0
    return db, block_for(c, mapping["half"]), rung(mapping["cdef"], mapping["fcd"], c)


def score(mapping, clips):
    """Gains of the mapping's settings (table look-ups)."""
    out = []
    for c in clips:
        db, block, cd = predict(mapping, c)
        g = None
        if c["kind"] != "clean":
            s = setting(db, block, cd)
            g = c["table"].get(s, math.nan) if s else 0.0
        out.append(
            dict(
                key=c["key"],
                kind=c["kind"],
                codec=c["codec"],
                setting=setting(db, block, cd),
                gain=g,
            )
        )
    return out


# --- the stage ---------------------------------------------------------------


def _load_clips(cp, log):
    """The corpus clips with measures (cached in est/measures.json) and
    their baseline tables."""
    cache_path = cp.path("est", "measures.json")
    cache = sweep.load(cache_path) if os.path.exists(cache_path) else {}
    clips = []
    for c, size, codec, q, kind in cp.clips():
        key = "%s-%s-%s" % (c, size, damage.label(codec, q))
        w, h = content.SIZES[size]
        if key not in cache:
            log("measure %s" % key)
            cache[key] = measure_clip(yuv.read_i420(cp.dmg(c, size, codec, q), w, h))
            sweep.save(cache_path, cache)
        m = dict(
            cache[key],
            key=key,
            content=c,
            size=size,
            codec=codec,
            q=q,
            kind=kind,
            blocks=sorted({baselines.grid_of(codec), 8}),
        )
        if codec != "clean" and os.path.exists(cp.path("base", key + ".json")):
            rows = sweep.load(cp.path("base", key + ".json"))
            m["table"] = gain_table(rows)
            m["rows"] = rows
        clips.append(m)
    return clips


def run_stage(cp, workdir, log, force, docs):
    import estimate_eval

    estimate_eval.run(cp, workdir, log, force, _load_clips(cp, log), docs)
