#!/usr/bin/python3
"""daedalus picture-quality benchmark: damage clips with real codecs, clean
them with the daedalus elements and FFmpeg's post-processing filters, score
against the undamaged source. See docs/quality.md.

Stages (each keeps its results in the work folder and is skipped when they
are there already; --force redoes them):
  sources  the undamaged clips          damage  encode + decode each clip
  sweep    every setting, few frames    eval    tuned settings, every frame
  speed    frames per second            report  tables, plots, crops
The damage estimator's stages (issue 16; run only when named, see
docs/estimator.md):
  corpus   its clips, 4 frames each      baselines  per-clip best settings
  estimate measure, fit, evaluate the automatic settings
  levels   each clip at each auto level; the level staircase fitted
  vp9      daedalusdeblock mode=vp9 against mode=h264 on the corpus's 720p
           clips of four contents (docs/quality.md, "mode=vp9"; makes
           those clips of the corpus when the corpus stage has not run)
  dct      mode=dct (alone and before CDEF) on every corpus clip, each
           family's best per clip, and the grid's quantisation probe
           (docs/estimator.md; needs the levels stage)
  hbd      the elements at their defaults on 10-bit clips damaged by HEVC
           Main10 with its in-loop filters off (docs/quality.md)
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import baselines  # noqa: E402
import content  # noqa: E402
import corpus  # noqa: E402
import damage  # noqa: E402
import defaults  # noqa: E402
import evaluate  # noqa: E402
import folders  # noqa: E402
import report  # noqa: E402
import sweep  # noqa: E402
import estimate  # noqa: E402
import auto  # noqa: E402
import levels  # noqa: E402
import vp9  # noqa: E402
import dct_levels  # noqa: E402
import hbd  # noqa: E402

STAGES = ("sources", "damage", "sweep", "eval", "speed", "report")
EXTRA_STAGES = ("corpus", "baselines", "estimate", "levels", "auto", "vp9", "dct", "hbd")
FRAMES = 8
# (content, size) pairs: the sweep's, and the evaluation's (photos-zoom is
# left out of the sweep, so the tuned settings are checked on unseen content).
SWEEP_CLIPS = (("photos-pan", "720p"), ("spokes", "720p"), ("zoneplate", "720p"))
# The patterns are synthetic and self-similar: the sweep takes their middle
# quarter (the spokes' hub, the zone plate's lower frequencies).
SWEEP_REGIONS = {"spokes": (320, 176, 640, 368), "zoneplate": (320, 176, 640, 368)}
EVAL_CLIPS = (
    ("photos-pan", "720p"),
    ("photos-zoom", "720p"),
    ("spokes", "720p"),
    ("zoneplate", "720p"),
    ("photos-pan", "1080p"),
)
SPEED_CLIP = ("photos-pan", "1080p", "mpeg2", 12)
SPEED_LOOPS = 4


class Work(folders.ClipFolders):
    def __init__(self, root):
        super().__init__(root, ("sweep", "sweep-chain", "sweep-defaults", "eval", "tmp"))
        # Filter outputs, in a folder of this run's own.
        self.tmp = tempfile.mkdtemp(dir=os.path.join(root, "tmp"))


def log(msg):
    print("[%s] %s" % (time.strftime("%H:%M:%S"), msg), flush=True)


def all_clips():
    return sorted(set(SWEEP_CLIPS) | set(EVAL_CLIPS))


def stage_sources(work, force):
    canvas = None
    for c, size in all_clips():
        if force or not os.path.exists(work.src(c, size)):
            if c in content.PHOTO_CLIPS and canvas is None:
                canvas = content.montage()
            log("source %s %s" % (c, size))
            content.make_clip(c, size, FRAMES, work.src(c, size), canvas)


def stage_damage(work, force):
    info_path = work.path("damage.json")
    info = {} if force or not os.path.exists(info_path) else sweep.load(info_path)
    for c, size in all_clips():
        w, h = content.SIZES[size]
        for codec, q, _ in damage.variants()[1:]:
            key = "%s-%s-%s" % (c, size, damage.label(codec, q))
            if key not in info or not os.path.exists(work.dmg(c, size, codec, q)):
                log("damage %s" % key)
                info[key] = damage.damage(
                    codec, q, work.src(c, size), w, h, work.dmg(c, size, codec, q)
                )
        sweep.save(info_path, info)


def _extra(c, size, codec, q, kind, info):
    w, h = content.SIZES[size]
    coded = info.get("%s-%s-%s" % (c, size, damage.label(codec, q)))
    bpp = coded * 8 / (FRAMES * w * h) if coded else None
    return dict(content=c, size=size, codec=codec, q=q, kind=kind, bpp=bpp)


def _sweep_stage(work, folder, force, info, run):
    """Runs run(c, size, codec, q, args, extra) for every sweep clip whose
    file in `folder` is missing (or when forced); returns all its rows."""
    rows = []
    for c, size in SWEEP_CLIPS:
        w, h = content.SIZES[size]
        for codec, q, kind in damage.variants():
            path = work.path(folder, "%s-%s-%s.json" % (c, size, damage.label(codec, q)))
            args = (work.src(c, size), work.dmg(c, size, codec, q), w, h)
            extra = _extra(c, size, codec, q, kind, info)
            part = None if force or not os.path.exists(path) else sweep.load(path)
            part = run(c, size, codec, q, args, extra, part)
            sweep.save(path, part)
            rows += part
    return rows


def stage_sweep(work, force):
    info = sweep.load(work.path("damage.json"))

    def alone(c, size, codec, q, args, extra, old):
        if old is not None:
            return old
        log("sweep %s %s %s" % (c, size, damage.label(codec, q)))
        return sweep.sweep_clip(*args, codec, SWEEP_REGIONS.get(c), work.tmp, extra)

    rows = _sweep_stage(work, "sweep", force, info, alone)
    best = sweep.best_per_damage(rows, defaults.TOLERANCE_DB)

    def chain(c, size, codec, q, args, extra, old):
        deblock = best[(codec, q)]["daedalus-deblock"]
        if old and all(r["setting"].startswith(deblock + " ! ") for r in old):
            return old
        log("sweep chain %s %s %s" % (c, size, damage.label(codec, q)))
        return sweep.sweep_chain(*args, deblock, SWEEP_REGIONS.get(c), work.tmp, extra)

    def pairs(c, size, codec, q, args, extra, old):
        if old is not None:
            return old
        log("sweep defaults %s %s %s" % (c, size, damage.label(codec, q)))
        return sweep.sweep_defaults(*args, SWEEP_REGIONS.get(c), work.tmp, extra)

    rows += _sweep_stage(work, "sweep-chain", force, info, chain)
    rows += _sweep_stage(work, "sweep-defaults", force, info, pairs)
    best = sweep.best_per_damage(rows, defaults.TOLERANCE_DB)
    rec = defaults.choose(rows)
    sweep.save(
        work.path("tuned.json"),
        {"best": {"%s %d" % k: v for k, v in best.items()}, "defaults": rec},
    )
    log("recommended defaults: %s" % json.dumps(rec["settings"]))


def _tuned(work):
    t = sweep.load(work.path("tuned.json"))
    best = {(k.split()[0], int(k.split()[1])): v for k, v in t["best"].items()}
    return best, t["defaults"]


def stage_eval(work, force):
    info = sweep.load(work.path("damage.json"))
    best, rec = _tuned(work)
    for c, size in EVAL_CLIPS:
        w, h = content.SIZES[size]
        for codec, q, kind in damage.variants():
            out = work.path("eval", "%s-%s-%s.json" % (c, size, damage.label(codec, q)))
            settings = evaluate.tuned_settings(best[(codec, q)], rec["settings"])
            # Rows of an earlier run whose setting is unchanged stand.
            old = (
                {}
                if force or not os.path.exists(out)
                else {(r["family"], r["setting"]): r for r in sweep.load(out)}
            )
            if all((f, s) in old for f, (_, s) in settings.items()):
                continue
            log("eval %s %s %s" % (c, size, damage.label(codec, q)))
            rows = evaluate.evaluate_clip(
                work.src(c, size),
                work.dmg(c, size, codec, q),
                w,
                h,
                settings,
                work.tmp,
                _extra(c, size, codec, q, kind, info),
                old,
            )
            sweep.save(out, rows)


def stage_speed(work, force):
    out = work.path("speed.json")
    if os.path.exists(out) and not force:
        return
    c, size, codec, q = SPEED_CLIP
    w, h = content.SIZES[size]
    best, rec = _tuned(work)
    settings = evaluate.tuned_settings(best[(codec, q)], rec["settings"])
    for fam in ("daedalus-deblock", "daedalus-cdef", "daedalus-chain"):
        tool, s = settings[fam]
        scalar = s.replace(" ! ", " backend=scalar ! ") + " backend=scalar"
        settings[fam + " (scalar)"] = (tool, scalar)
    # The clip SPEED_LOOPS times over, so that fast filters take long enough
    # to time.
    src = os.path.join(work.tmp, "speed-in.yuv")
    with open(work.dmg(c, size, codec, q), "rb") as f:
        data = f.read()
    with open(src, "wb") as f:
        for _ in range(SPEED_LOOPS):
            f.write(data)
    log("speed on %s %s %s" % (c, size, damage.label(codec, q)))
    load = os.getloadavg()[0]
    res = evaluate.speed(settings, src, w, h, FRAMES * SPEED_LOOPS)
    sweep.save(
        out,
        {
            "clip": "%s %s %s" % (c, size, damage.label(codec, q)),
            "frames": FRAMES * SPEED_LOOPS,
            "cpus": os.cpu_count(),
            "load": max(load, os.getloadavg()[0]),
            "fps": res,
            "settings": {f: s for f, (_, s) in settings.items()},
        },
    )


def stage_report(work, docs):
    rows = []
    for name in sorted(os.listdir(work.path("eval"))):
        rows += sweep.load(work.path("eval", name))
    best, rec = _tuned(work)
    speed = sweep.load(work.path("speed.json")) if os.path.exists(work.path("speed.json")) else None
    report.write(rows, best, rec, speed, work, docs)


def stage_corpus(work, force):
    corpus.make(corpus.Corpus(work.root), log, sweep.load, sweep.save, force)


def stage_baselines(work, force):
    cp = corpus.Corpus(work.root)
    info = sweep.load(cp.path("damage.json"))
    # 720p first, so that a run cut short has covered whole contents; two
    # processes may share the work (a lock file per clip).
    for c, size, codec, q, kind in sorted(cp.clips(), key=lambda k: k[1] != "720p"):
        if codec == "clean":
            continue
        out = cp.path("base", "%s-%s-%s.json" % (c, size, damage.label(codec, q)))
        if os.path.exists(out) and not force:
            continue
        try:
            os.close(os.open(out + ".lock", os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            continue
        w, h = content.SIZES[size]
        coded = info.get("%s-%s-%s" % (c, size, damage.label(codec, q)))
        extra = dict(
            content=c,
            size=size,
            codec=codec,
            q=q,
            kind=kind,
            bpp=coded * 8 / (corpus.FRAMES * w * h) if coded else None,
        )
        log("baselines %s %s %s" % (c, size, damage.label(codec, q)))
        sweep.save(
            out,
            baselines.sweep_clip(
                cp.src(c, size), cp.dmg(c, size, codec, q), w, h, codec, work.tmp, extra
            ),
        )
        os.remove(out + ".lock")


def stage_estimate(work, force, docs):
    estimate.run_stage(corpus.Corpus(work.root), work.tmp, log, force, docs)


def stage_levels(work, force):
    levels.run_stage(corpus.Corpus(work.root), work.tmp, log)


def stage_auto(work, force, clips=None, docs=None):
    auto.run_stage(work, work.tmp, log, force, clips, docs)


def stage_hbd(work, force):
    hbd.run_stage(work, work.tmp, log, force)


def stage_dct(work, force):
    dct_levels.run_stage(corpus.Corpus(work.root), work.tmp, log)


def stage_vp9(work, force):
    corpus.make(corpus.Corpus(work.root), log, sweep.load, sweep.save, clips=vp9.CLIPS)
    vp9.run_stage(work, work.tmp, log, force)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "stages",
        nargs="*",
        default=STAGES,
        help="stages to run, of: %s (default: all of these, in order); "
        "or of the estimator's: %s" % (" ".join(STAGES), " ".join(EXTRA_STAGES)),
    )
    ap.add_argument(
        "--work",
        default="/tmp/daedalus-quality",
        help="folder for clips and results (default %(default)s; " "about 1.5 GB)",
    )
    ap.add_argument(
        "--docs",
        default=os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "quality"
        ),
        help="folder for the plots and crops (default docs/quality)",
    )
    ap.add_argument("--force", action="store_true", help="redo the stages given")
    ap.add_argument(
        "--clips",
        default="",
        help="auto: only these corpus clips (comma-separated names as in its "
        "report, e.g. textures-pan-720p-h264-q24), measured again",
    )
    a = ap.parse_args()
    for st in a.stages:
        if st not in STAGES + EXTRA_STAGES:
            ap.error("unknown stage %s" % st)
    work = Work(a.work)
    t0 = time.time()
    for st in STAGES + EXTRA_STAGES:
        if st in a.stages:
            if st == "report":
                stage_report(work, a.docs)
            elif st == "estimate":
                stage_estimate(work, a.force, a.docs)
            elif st == "auto":
                clips = set(filter(None, a.clips.split(",")))
                # Figures from the whole corpus only.
                stage_auto(work, a.force, clips, None if clips else a.docs)
            else:
                globals()["stage_" + st](work, a.force)
    shutil.rmtree(work.tmp)
    log("done in %.0f s" % (time.time() - t0))


if __name__ == "__main__":
    main()
