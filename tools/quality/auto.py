"""The elements at their defaults (auto strength, issue 16) on the
estimator's corpus: every clip through `daedalusdeblock ! daedaluscdef` with
no property set, scored against its source, next to the per-clip oracles of
the baselines (FFmpeg's best filter and the daedalus grid's best, each
chosen per clip). Clean clips must come out bit for bit. Writes
<work>/corpus/auto/results.json and report.md."""

import math
import os
import statistics

import auto_figures
import content
import corpus
import damage
import filters
import sweep
import yuv

CHAIN = "daedalusdeblock ! daedaluscdef"
# The (content, size) the baselines stage of session 5 left out for time
# (docs/estimator.md): where the baselines are not in the work folder, the
# means are over the clips they covered, to compare with its figures.
NO_BASELINES = {("retina-pan", "1080p")}


def gain(m, base):
    """The change from `base` to `m` (yuv.compare's results): PSNR-YUV and
    each plane's SSIM."""
    return dict(
        psnr=m["psnr_yuv"] - base["psnr_yuv"],
        **{"ssim_" + p: m["ssim_" + p] - base["ssim_" + p] for p in yuv.PLANES}
    )


def best_gain(rows, tool):
    """PSNR-YUV gain of `tool`'s best setting in a clip's baseline rows, or None."""
    base = next(r for r in rows if r["tool"] == "none")
    b = next((r for r in rows if r["tool"] == tool and r.get("stage") == "best"), None)
    return None if b is None else b["psnr_yuv"] - base["psnr_yuv"]


def measure(cp, workdir, log, force, only=None):
    """Every clip not measured yet (all with `force`); with `only` (clip
    names) those clips alone, again, keeping the others' results."""
    path = cp.path("auto", "results.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    done = sweep.load(path) if os.path.exists(path) and (only or not force) else {}
    for c, size, codec, q, kind in cp.clips():
        key = "%s-%s-%s" % (c, size, damage.label(codec, q))
        if (key not in only) if only else key in done:
            continue
        w, h = content.SIZES[size]
        ref = yuv.read_i420(cp.src(c, size), w, h)
        src = cp.dmg(c, size, codec, q)
        out = os.path.join(workdir, "auto.yuv")
        log("auto %s" % key)
        filters.run_gst([CHAIN], src, w, h, [out])
        with open(src, "rb") as a, open(out, "rb") as b:
            identical = a.read() == b.read()
        r = dict(content=c, size=size, codec=codec, q=q, kind=kind, identical=identical)
        if codec != "clean":
            base = yuv.compare(ref, yuv.read_i420(src, w, h))
            r.update(gain(yuv.compare(ref, yuv.read_i420(out, w, h)), base))
            bpath = cp.path("base", key + ".json")
            if os.path.exists(bpath):
                rows = sweep.load(bpath)
                r["ffmpeg_best"] = best_gain(rows, "ffmpeg")
                r["daedalus_best"] = best_gain(rows, "gst")
        os.remove(out)
        done[key] = r
        sweep.save(path, done)
    return done


def _mean(xs):
    xs = [x for x in xs if x is not None and not math.isnan(x)]
    return statistics.mean(xs) if xs else math.nan


def report(results):
    """The tables of docs/quality.md's auto-strength section, as markdown.
    Means compare like with like: over the clips that have baselines (where
    none are in the work folder, over those session 5's covered)."""
    values = list(results.values())
    if any(r.get("ffmpeg_best") is not None for r in values):
        rs = [r for r in values if r["kind"] == "clean" or r.get("ffmpeg_best") is not None]
        md = ["Means over the clips with baselines.", ""]
    else:
        rs = [r for r in values if (r["content"], r["size"]) not in NO_BASELINES]
        md = [
            "No baselines in the work folder: means over the clips session 5's "
            "covered (all but %s); the FFmpeg and grid columns are empty."
            % ", ".join(" ".join(k) for k in sorted(NO_BASELINES)),
            "",
        ]
    md += [
        "| clips | n | defaults: dPSNR-YUV mean (worst) | dSSIM-Y x1000 mean (worst plane, any clip) "
        "| FFmpeg best per clip | daedalus grid best per clip |",
        "|---|---|---|---|---|---|",
    ]
    for kind in ("damaged", "light"):
        k = [r for r in rs if r["kind"] == kind]
        md.append(
            "| %s | %d | %+.3f (%+.3f) | %+.2f (%+.2f) | %+.3f | %+.3f |"
            % (
                kind,
                len(k),
                _mean(r["psnr"] for r in k),
                min((r["psnr"] for r in k), default=math.nan),
                1000 * _mean(r["ssim_y"] for r in k),
                1000 * min((r["ssim_" + p] for r in k for p in yuv.PLANES), default=math.nan),
                _mean(r.get("ffmpeg_best") for r in k),
                _mean(r.get("daedalus_best") for r in k),
            )
        )
    clean = [r for r in values if r["kind"] == "clean"]
    md.append("")
    md.append(
        "Clean clips passed through bit for bit: %d of %d."
        % (sum(r["identical"] for r in clean), len(clean))
    )
    for kind in ("damaged", "light"):
        k = {key: r for key, r in results.items() if r["kind"] == kind}
        worst = min(
            ((r["ssim_" + p], key, p) for key, r in k.items() for p in yuv.PLANES),
            default=(math.nan, "", ""),
        )
        md.append(
            "All %d %s clips: dPSNR-YUV %+.3f (worst %+.3f), worst dSSIM of a plane x1000 %+.4f%s."
            % (
                len(k),
                kind,
                _mean(r["psnr"] for r in k.values()),
                min((r["psnr"] for r in k.values()), default=math.nan),
                1000 * worst[0],
                " (%s %s)" % worst[1:] if worst[0] < 0 else " (none below 0)",
            )
        )
    for title, field, names in (
        ("damage", "codec", list(damage.CORPUS_CODECS)),
        ("content (size)", "where", sorted({"%s %s" % (r["content"], r["size"]) for r in rs})),
    ):
        md += [
            "",
            "| damaged clips by %s | defaults | FFmpeg best per clip | daedalus grid best |"
            % title,
            "|---|---|---|---|",
        ]
        for name in names:
            k = [
                r
                for r in rs
                if r["kind"] == "damaged"
                and (r["codec"] if field == "codec" else "%s %s" % (r["content"], r["size"]))
                == name
            ]
            if k:
                md.append(
                    "| %s | %+.3f | %+.3f | %+.3f |"
                    % (
                        name,
                        _mean(r["psnr"] for r in k),
                        _mean(r.get("ffmpeg_best") for r in k),
                        _mean(r.get("daedalus_best") for r in k),
                    )
                )
    worst = sorted((r["psnr"], key) for key, r in results.items() if r["kind"] != "clean")[:5]
    md += ["", "Worst clips: " + ", ".join("%s %+.3f" % (k, g) for g, k in worst) + "."]
    return "\n".join(md) + "\n"


def run_stage(work, workdir, log, force, only=None, docs=None):
    """Measures, writes report.md, and with `docs` (a folder) the figures
    (auto_figures)."""
    cp = corpus.Corpus(work.root)
    results = measure(cp, workdir, log, force, only)
    with open(cp.path("auto", "report.md"), "w") as f:
        f.write(report(results))
    log(open(cp.path("auto", "report.md")).read())
    if docs:
        auto_figures.write(cp, results, CHAIN, workdir, docs)
