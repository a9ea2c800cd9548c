"""The estimator stage: baselines per clip, the fitted mapping (on all
contents, and left-one-content-out), its gains, SSIM with the estimated
settings, and the estimate on cropped clips. Writes <work>/corpus/est/
report.md and mapping.json."""

import math
import os
import statistics

import numpy as np

import content
import estimate
import filters
import sweep
import yuv

# (deblock measure, CDEF measure) pairs the cross-validation compares.
# Each fitted with light clips allowed to lose 0.05 dB, and, for slack on
# unseen content, nothing at all.
FEATURES = tuple(
    (a, b, t)
    for t in (estimate.LIGHT_TOLERANCE_DB, 0.0)
    for a, b in (
        ("blk", "blk"),
        ("blk", "blkr"),
        ("blkr", "blkr"),
        ("blk", "ring"),
        ("blk", "flat"),
        ("blk", "blk&blkr"),
        ("blk&blkr", "blk&blkr"),
    )
)
CROP = 3  # luma samples cut from the left and the top (chroma: 1)
CROP_CLIPS = (("photos-pan", "720p"), ("retina-pan", "720p"))


def short(setting):
    """'db 34/8 + cdef 15/1/6' for a chain setting; 'none' for nothing."""
    out = []
    for part in setting.split(" ! ") if setting else []:
        kv = dict(x.split("=") for x in part.split()[1:])
        if part.startswith("daedalusdeblock"):
            out.append("db %s/%s" % (kv["qp"], kv["block-size"]))
        else:
            out.append("cdef %s/%s/%s" % (kv["pri-strength"], kv["sec-strength"], kv["damping"]))
    return " + ".join(out) or "none"


def plot(clips, mapping, ins, path):
    """blk against the per-clip best deblock qp and CDEF step (daedalus
    grid), with the fitted staircases: a small PNG for the docs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(8, 3), dpi=80)
    colours = {
        "mpeg2": "C0",
        "mpeg4": "C1",
        "h264": "C2",
        "mjpeg": "C3",
        "h264lf": "C4",
        "clean": "k",
    }
    for c in clips:
        if "rows" not in c:
            continue
        b = next(r for r in c["rows"] if r["tool"] == "gst" and r.get("stage") == "best")["setting"]
        qp = int(b.split("qp=")[1].split()[0]) if "daedalusdeblock" in b else 0
        pri = int(b.split("pri-strength=")[1].split()[0]) if "daedaluscdef" in b else 0
        for ax, y in zip(axes, (qp, pri)):
            ax.scatter(
                c[mapping["fdb"].split("&")[0]],
                y,
                s=10,
                c=colours[c["codec"]],
                marker="o" if c["kind"] == "damaged" else "x",
            )
    f0 = mapping["fdb"].split("&")[0]
    xs = np.linspace(0, max(c[f0] for c in clips) * 1.05, 400)
    axes[0].plot(
        xs,
        [estimate.DEBLOCK_LADDER[estimate.apply_staircase(mapping["deblock"][0], x)] for x in xs],
        "k-",
        lw=1,
    )
    if mapping["fcd"].split("&")[0] == f0:
        axes[1].plot(
            xs,
            [estimate.CDEF_LADDER[estimate.apply_staircase(mapping["cdef"][0], x)][0] for x in xs],
            "k-",
            lw=1,
        )
    axes[0].set_ylabel("deblock qp (0: off)")
    axes[1].set_ylabel("CDEF pri-strength")
    for ax in axes:
        ax.set_xlabel(mapping["fdb"].split("&")[0])
        ax.set_xscale("symlog", linthresh=4)
    for k, col in colours.items():
        if k != "clean":
            axes[1].scatter([], [], c=col, s=10, label=k)
    axes[1].legend(fontsize=7, loc="lower right")
    fig.suptitle(
        "best daedalus setting per clip (o damaged, x light) and the fitted staircase", fontsize=9
    )
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _mean(xs):
    xs = [x for x in xs if x is not None and not math.isnan(x)]
    return statistics.mean(xs) if xs else math.nan


def _best(c, tool):
    base = next(r for r in c["rows"] if r["tool"] == "none")
    b = next(r for r in c["rows"] if r["tool"] == tool and r.get("stage") == "best")
    return dict(
        setting=b["setting"],
        psnr=b["psnr_yuv"] - base["psnr_yuv"],
        ssim=b["ssim_y"] - base["ssim_y"],
        ssim_min=min(b["ssim_" + p] - base["ssim_" + p] for p in yuv.PLANES),
    )


def _summary(name, gains, kinds):
    dmg = [g for g, k in zip(gains, kinds) if k == "damaged"]
    light = [g for g, k in zip(gains, kinds) if k == "light"]
    return "| %s | %+.3f | %+.3f | %+.3f |" % (
        name,
        _mean(dmg),
        min(dmg, default=math.nan),
        min(light, default=math.nan),
    )


def cross_validate(clips, fdb, fcd, tol):
    """Gains with each content's clips mapped by a fit on the others."""
    out = {}
    for cont in sorted({c["content"] for c in clips}):
        train = [c for c in clips if c["content"] != cont]
        m = estimate.fit(train, fdb=fdb, fcd=fcd, tol=tol)
        for r in estimate.score(m, [c for c in clips if c["content"] == cont]):
            out[r["key"]] = r
    return [out[c["key"]] for c in clips]


def _run_setting(setting, src_path, ref, w, h, workdir):
    if not setting:
        test = yuv.read_i420(src_path, w, h)
    else:
        out = os.path.join(workdir, "est.yuv")
        filters.run_gst([setting], src_path, w, h, [out])
        test = yuv.read_i420(out, w, h)
        os.remove(out)
    return yuv.compare(ref, test)


def crop_check(cp, clips, mapping, workdir, log):
    """The estimate on each CROP_CLIPS clip cut by CROP samples (its grid at
    offset 8 - CROP), and the gain of the setting it gives there, and of the
    uncut clip's setting (deblocking the wrong lines)."""
    rows = []
    for c in clips:
        if (c["content"], c["size"]) not in CROP_CLIPS or c["kind"] == "clean":
            continue
        w, h = content.SIZES[c["size"]]
        ref = [
            p[:, s:, s:]
            for p, s in zip(yuv.read_i420(cp.src(c["content"], c["size"]), w, h), (CROP, 1, 1))
        ]
        dmg = [
            p[:, s:, s:]
            for p, s in zip(
                yuv.read_i420(cp.dmg(c["content"], c["size"], c["codec"], c["q"]), w, h),
                (CROP, 1, 1),
            )
        ]
        # Cut the far side too, to a width of w - 8: rawvideoparse expects
        # rows padded to 4 bytes, so the chroma width must be a multiple of 4.
        cw, ch = w - 8, h - 8
        ref[0], dmg[0] = ref[0][:, :ch, :cw], dmg[0][:, :ch, :cw]
        ref[1:], dmg[1:] = ([p[:, : ch // 2, : cw // 2] for p in x[1:]] for x in (ref, dmg))
        src = os.path.join(workdir, "crop.yuv")
        yuv.write_i420(src, dmg)
        m = estimate.measure_clip(dmg)
        m.update(kind=c["kind"], blocks=c["blocks"], codec=c["codec"])
        db, block, cd = estimate.predict(mapping, m)
        s_crop = estimate.setting(db, block, cd)
        s_orig = estimate.setting(*estimate.predict(mapping, c))
        base = yuv.compare(ref, dmg, ssim=False)["psnr_yuv"]
        g_crop = _run_setting(s_crop, src, ref, cw, ch, workdir)["psnr_yuv"] - base
        g_orig = (
            _run_setting(s_orig, src, ref, cw, ch, workdir)["psnr_yuv"] - base
            if s_orig != s_crop
            else g_crop
        )
        log(
            "crop %s: offset %d,%d blk %.1f (uncut %.1f)"
            % (c["key"], m["offset_x"], m["offset_y"], m["blk"], c["blk"])
        )
        rows.append(
            dict(
                key=c["key"],
                kind=c["kind"],
                offset=(m["offset_x"], m["offset_y"]),
                spacing=m["spacing"],
                blk=m["blk"],
                blk_uncut=c["blk"],
                setting=s_crop,
                gain=g_crop,
                setting_uncut=s_orig,
                gain_uncut_setting=g_orig,
            )
        )
        os.remove(src)
    return rows


def run(cp, workdir, log, force, all_clips, docs):
    # Damaged clips whose baselines are not there yet are left out.
    clips = [c for c in all_clips if c["codec"] == "clean" or "table" in c]
    have = [c for c in clips if c["codec"] != "clean"]
    kinds = [c["kind"] for c in have]
    md = []
    md.append(
        "Clips: %d damaged or light with baselines, %d clean (%s)."
        % (
            len(have),
            len(clips) - len(have),
            ", ".join(sorted({"%s %s" % (c["content"], c["size"]) for c in clips})),
        )
    )

    # Baselines.
    ff = [_best(c, "ffmpeg") for c in have]
    dd = [_best(c, "gst") for c in have]
    md += [
        "",
        "### Baselines: best setting per clip",
        "",
        "| kind | clips | FFmpeg best: dPSNR-YUV mean (worst) | dSSIM-Y x1000 | daedalus grid best: dPSNR-YUV | dSSIM-Y x1000 |",
        "|---|---|---|---|---|---|",
    ]
    for kind in ("damaged", "light"):
        idx = [i for i, k in enumerate(kinds) if k == kind]
        md.append(
            "| %s | %d | %+.3f (%+.3f) | %+.2f | %+.3f (%+.3f) | %+.2f |"
            % (
                kind,
                len(idx),
                _mean(ff[i]["psnr"] for i in idx),
                min(ff[i]["psnr"] for i in idx),
                1000 * _mean(ff[i]["ssim"] for i in idx),
                _mean(dd[i]["psnr"] for i in idx),
                min(dd[i]["psnr"] for i in idx),
                1000 * _mean(dd[i]["ssim"] for i in idx),
            )
        )
    md += [
        "",
        "| codec | damaged clips | FFmpeg best | most chosen FFmpeg filter | daedalus best |",
        "|---|---|---|---|---|",
    ]
    for codec in sorted({c["codec"] for c in have}):
        idx = [i for i, c in enumerate(have) if c["codec"] == codec and c["kind"] == "damaged"]
        names = [ff[i]["setting"].split("=")[0] for i in idx]
        top = max(set(names), key=names.count) if names else "-"
        md.append(
            "| %s | %d | %+.3f | %s | %+.3f |"
            % (
                codec,
                len(idx),
                _mean(ff[i]["psnr"] for i in idx),
                top,
                _mean(dd[i]["psnr"] for i in idx),
            )
        )

    # The fit: the CDEF feature chosen by cross-validation.
    md += [
        "",
        "### Mapping: left-one-content-out cross-validation per pair of measures",
        "",
        "| deblock / CDEF measure, light tolerance in the fit | mean dPSNR-YUV damaged | worst damaged | worst light | clean clips filtered |",
        "|---|---|---|---|---|",
    ]
    cv = {}
    for f in FEATURES:
        rs = cross_validate(clips, *f)
        cv[f] = rs
        g = [r["gain"] for r in rs if r["kind"] != "clean"]
        md.append(
            _summary("%s / %s, %.2f dB" % f, g, [r["kind"] for r in rs if r["kind"] != "clean"])
            + " %d |" % sum(1 for r in rs if r["kind"] == "clean" and r["setting"])
        )

    def cv_key(f):
        # The rule first (no light clip loses more than the
        # tolerance), then the mean gain on damaged clips.
        g = [(r["gain"], r["kind"]) for r in cv[f] if r["kind"] != "clean"]
        worst = min((x for x, k in g if k == "light"), default=0.0)
        clean_ok = not any(r["setting"] for r in cv[f] if r["kind"] == "clean")
        ok = worst >= -estimate.LIGHT_TOLERANCE_DB and clean_ok
        return (ok, clean_ok, _mean(x for x, k in g if k == "damaged") if ok else worst)

    fdb, fcd, tol = max(cv, key=cv_key)
    mapping = estimate.fit(clips, fdb=fdb, fcd=fcd, tol=tol)
    sweep.save(cp.path("est", "mapping.json"), mapping)
    ins = estimate.score(mapping, clips)
    md += [
        "",
        "Chosen: deblock on `%s`, CDEF on `%s`, light clips allowed %.2f dB in the fit; "
        "block-size 4 from a halfway share of %.2f." % (fdb, fcd, tol, mapping["half"]),
        "",
    ]
    for what, ladder, key in (
        ("Deblock", ["qp %d" % q for q in estimate.DEBLOCK_LADDER[1:]], "deblock"),
        ("CDEF", ["%d/%d/%d" % p for p in estimate.CDEF_LADDER[1:]], "cdef"),
    ):
        names = mapping["fdb" if key == "deblock" else "fcd"].split("&")
        for n, stair in zip(names, mapping[key]):
            md += [
                "",
                "%s staircase on `%s`%s: %s"
                % (
                    what,
                    n,
                    " (the rung is the smaller of the two)" if len(names) > 1 else "",
                    ", ".join("%s from %.1f" % (l, t) for l, t in zip(ladder, stair)),
                ),
            ]

    # Evaluation.
    gi = [r["gain"] for r in ins if r["kind"] != "clean"]
    gc = [r["gain"] for r in cv[(fdb, fcd, tol)] if r["kind"] != "clean"]
    md += [
        "",
        "### Evaluation (dPSNR-YUV over damaged clips; light: worst)",
        "",
        "| settings | mean damaged | worst damaged | worst light |",
        "|---|---|---|---|",
        _summary("FFmpeg best per clip (oracle)", [x["psnr"] for x in ff], kinds),
        _summary("daedalus grid best per clip (oracle)", [x["psnr"] for x in dd], kinds),
        _summary("estimated, fit on all clips", gi, kinds),
        _summary("estimated, content left out of the fit", gc, kinds),
    ]
    clean_set = [r["setting"] for r in ins if r["kind"] == "clean"]
    md.append("")
    md.append(
        "Clean clips given a filter: %d of %d (in-sample); left-one-out: %d."
        % (
            sum(1 for s in clean_set if s),
            len(clean_set),
            sum(1 for r in cv[(fdb, fcd, tol)] if r["kind"] == "clean" and r["setting"]),
        )
    )
    md += [
        "",
        "| codec | kind | estimated (cv) | estimated (all) | FFmpeg best | daedalus best |",
        "|---|---|---|---|---|---|",
    ]
    for codec in sorted({c["codec"] for c in have}):
        for kind in ("light", "damaged"):
            idx = [i for i, c in enumerate(have) if c["codec"] == codec and c["kind"] == kind]
            if idx:
                md.append(
                    "| %s | %s | %+.3f | %+.3f | %+.3f | %+.3f |"
                    % (
                        codec,
                        kind,
                        _mean(gc[i] for i in idx),
                        _mean(gi[i] for i in idx),
                        _mean(ff[i]["psnr"] for i in idx),
                        _mean(dd[i]["psnr"] for i in idx),
                    )
                )
    md += [
        "",
        "Per clip (in-sample mapping):",
        "",
        "| clip | blk | blkr | ring | flat | spacing | half | setting | est. | FFmpeg best | daedalus best |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    byk = {c["key"]: c for c in clips}
    for (r,) in zip(ins):
        c = byk[r["key"]]
        f = next((x for x, h in zip(ff, have) if h["key"] == r["key"]), None)
        d = next((x for x, h in zip(dd, have) if h["key"] == r["key"]), None)
        md.append(
            "| %s | %.1f | %.0f | %.1f | %.0f | %d | %.2f | %s | %s | %s | %s |"
            % (
                r["key"],
                c["blk"],
                c["blkr"],
                c["ring"],
                c["flat"],
                c["spacing"],
                c["half"],
                short(r["setting"]),
                "-" if r["gain"] is None else "%+.2f" % r["gain"],
                "-" if f is None else "%+.2f %s" % (f["psnr"], f["setting"]),
                "-" if d is None else "%+.2f %s" % (d["psnr"], short(d["setting"])),
            )
        )
    # Frame by frame: how often one frame's own blk would pick another
    # deblock step than the clip's mean (what temporal smoothing avoids).
    f0 = fdb.split("&")[0]
    steps = [
        (
            estimate.apply_staircase(mapping["deblock"][0], b),
            estimate.apply_staircase(mapping["deblock"][0], c[f0]),
        )
        for c in clips
        for b in c[f0 + "_frames"]
    ]
    md += [
        "",
        "Frames whose own measure gives another deblock step than their clip's mean: %d of %d "
        "(off by more than one step: %d)."
        % (
            sum(1 for a, b in steps if a != b),
            len(steps),
            sum(1 for a, b in steps if abs(a - b) > 1),
        ),
    ]
    plot(clips, mapping, ins, os.path.join(docs, "estimator-fit.png"))
    sweep.save(
        cp.path("est", "scores.json"),
        dict(
            insample=ins,
            cv=cv[(fdb, fcd, tol)],
            ffmpeg=ff,
            daedalus=dd,
            keys=[c["key"] for c in have],
        ),
    )

    if os.environ.get("DAEDALUS_ESTIMATE_QUICK"):
        # Table look-ups only (while the baselines are still running).
        with open(cp.path("est", "report.md"), "w") as f:
            f.write("\n".join(md) + "\n")
        return
    # SSIM of the estimated settings (in-sample mapping), by running them.
    ssim_path = cp.path("est", "ssim.json")
    done = sweep.load(ssim_path) if os.path.exists(ssim_path) and not force else {}
    for r in ins:
        c = byk[r["key"]]
        if c["kind"] == "clean" or done.get(r["key"], {}).get("setting") == r["setting"]:
            continue
        w, h = content.SIZES[c["size"]]
        ref = yuv.read_i420(cp.src(c["content"], c["size"]), w, h)
        path = cp.dmg(c["content"], c["size"], c["codec"], c["q"])
        base = yuv.compare(ref, yuv.read_i420(path, w, h))
        m = _run_setting(r["setting"], path, ref, w, h, workdir)
        done[r["key"]] = dict(
            setting=r["setting"],
            psnr=m["psnr_yuv"] - base["psnr_yuv"],
            **{"ssim_" + p: m["ssim_" + p] - base["ssim_" + p] for p in yuv.PLANES}
        )
        sweep.save(ssim_path, done)
    ks = [k for k in done if byk.get(k, {}).get("kind") in ("damaged", "light")]
    for kind in ("damaged", "light"):
        kk = [k for k in ks if byk[k]["kind"] == kind]
        if kk:
            md.append("")
            md.append(
                "Run, %s (%d clips): dPSNR-YUV mean %+.3f, worst %+.3f; dSSIM-Y x1000 mean %+.2f; "
                "worst dSSIM of any plane x1000 %+.2f."
                % (
                    kind,
                    len(kk),
                    _mean(done[k]["psnr"] for k in kk),
                    min(done[k]["psnr"] for k in kk),
                    1000 * _mean(done[k]["ssim_y"] for k in kk),
                    1000 * min(min(done[k]["ssim_" + p] for p in yuv.PLANES) for k in kk),
                )
            )

    # Cropped clips.
    crop = crop_check(cp, clips, mapping, workdir, log)
    sweep.save(cp.path("est", "crop.json"), crop)
    md += [
        "",
        "### Cropped by %d samples (grid at offset %d)" % (CROP, 8 - CROP),
        "",
        "| clip | offset found | spacing | blk (uncut) | setting | gain | uncut clip's setting: gain |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in crop:
        md.append(
            "| %s | %d,%d | %d | %.1f (%.1f) | %s | %+.2f | %+.2f |"
            % (
                r["key"],
                r["offset"][0],
                r["offset"][1],
                r["spacing"],
                r["blk"],
                r["blk_uncut"],
                short(r["setting"]),
                r["gain"],
                r["gain_uncut_setting"],
            )
        )
    with open(cp.path("est", "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    log("wrote %s" % cp.path("est", "report.md"))
