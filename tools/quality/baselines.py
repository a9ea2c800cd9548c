"""Per-clip baselines for the damage estimator: on every frame of each corpus
clip, every FFmpeg post-processing setting (spp, pp7, fspp at every qp near
their best, deblock, pp) and a coarse grid of daedalus chain settings, scored
by PSNR; the best of each tool is then scored by SSIM as well."""

import os

import filters
import sweep
import yuv
from damage import CORPUS_CODECS

# FFmpeg: first the benchmark's qps (2..31), then for pp7, spp and fspp a
# search between the best qp's neighbours (up to 63 when 31 is the best):
# twice the midpoints either side of the best so far, which finds the best
# integer qp of a curve with one peak in at most 4 more runs per filter.
COARSE_QPS = filters.FFMPEG_QPS + (63,)
REFINED = {"pp7": "pp7=qp={qp}", "spp": "spp=qp={qp}", "fspp": "fspp=qp={qp}"}

# daedalus: deblock (bs 1, the codec's grid and 8) then CDEF (chroma
# strengths equal to luma's), each also left out.
DEBLOCK_QPS = (26, 30, 34, 38, 42, 46, 51)
CDEFS = ((2, 0, 5), (4, 0, 5), (9, 1, 6), (15, 0, 6), (15, 1, 6), (15, 2, 6))


def grid_of(codec):
    return CORPUS_CODECS[codec][2] if codec in CORPUS_CODECS else 8


def daedalus_settings(codec):
    blocks = sorted({grid_of(codec), 8})
    dbs = [None] + [filters.deblock_props(qp, 1, b) for b in blocks for qp in DEBLOCK_QPS]
    cds = [None] + [filters.cdef_props(*c) for c in CDEFS]
    return [" ! ".join(x for x in (d, c) if x) for d in dbs for c in cds if d or c]


def ffmpeg_coarse(codec):
    return filters.ffmpeg_settings(grid_of(codec))


def _qp_of(setting):
    return int(setting.split("qp=")[1])


def ffmpeg_refine(rows):
    """The next qps to try per filter of REFINED: the midpoints between the
    best qp so far and its nearest tried neighbours (63 past 31)."""
    out = []
    for name, fmt in REFINED.items():
        mine = [r for r in rows if r["setting"].startswith(name + "=")]
        if not mine:
            continue
        done = sorted({_qp_of(r["setting"]) for r in mine})
        best = _qp_of(max(mine, key=lambda r: r["psnr_yuv"])["setting"])
        i = done.index(best)
        new = set()
        if i + 1 < len(done):
            new.add((best + done[i + 1]) // 2)
        elif best < 63:
            new.add(63)
        if i > 0:
            new.add((best + done[i - 1] + 1) // 2)
        out += [fmt.format(qp=qp) for qp in sorted(new - set(done))]
    return out


def best_of(rows, tool):
    mine = [r for r in rows if r["tool"] == tool]
    return max(mine, key=lambda r: r["psnr_yuv"]) if mine else None


def sweep_clip(ref_path, dmg_path, w, h, codec, workdir, extra):
    """Rows: the damaged clip ("none") and every setting, PSNR only; then
    the best FFmpeg and daedalus setting again with SSIM (stage "best")."""
    ref = yuv.read_i420(ref_path, w, h)
    dmg = yuv.read_i420(dmg_path, w, h)
    rows = [dict(extra, tool="none", setting="none", **yuv.compare(ref, dmg))]
    score = lambda tool, ss: sweep._score(tool, ss, ref, dmg_path, w, h, workdir, extra)
    ff = score("ffmpeg", ffmpeg_coarse(codec))
    for _ in range(3):
        ff += score("ffmpeg", ffmpeg_refine(ff))
    rows += ff + score("gst", daedalus_settings(codec))
    for tool in ("ffmpeg", "gst"):
        b = best_of(rows, tool)
        out = os.path.join(workdir, "best.yuv")
        (filters.run_gst if tool == "gst" else filters.run_ffmpeg)(
            [b["setting"]], dmg_path, w, h, [out]
        )
        rows.append(
            dict(
                extra,
                tool=tool,
                setting=b["setting"],
                stage="best",
                **yuv.compare(ref, yuv.read_i420(out, w, h))
            )
        )
        os.remove(out)
    return rows
