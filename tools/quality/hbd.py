"""The elements at their defaults (auto strength) on 10-bit video (issue
12): photo clips of the estimator's corpus made at 10 bits (I420_10LE),
damaged by HEVC Main10 with its in-loop filters off (damage.HBD_CODECS),
through `daedalusdeblock ! daedaluscdef` with no property set, scored at
10 bits against the 10-bit source. Clean clips must come out bit for bit.
Writes <work>/hbd/results.json and report.md."""

import os
import statistics

import auto
import content
import damage
import filters
import folders
import sweep
import yuv

CLIPS = (("photos-pan", "720p"), ("retina-pan", "720p"), ("textures-pan", "720p"))
FRAMES = 4
BIT_DEPTH = 10
FORMAT = "i420-10le"  # rawvideoparse's name of I420_10LE


def measure(folder, workdir, log, force):
    path, sizes_path = folder.path("results.json"), folder.path("damage.json")
    done = sweep.load(path) if os.path.exists(path) and not force else {}
    # The coded size of each damaged clip, in bytes.
    sizes = sweep.load(sizes_path) if os.path.exists(sizes_path) and not force else {}
    canvas = None
    for c, size in CLIPS:
        w, h = content.SIZES[size]
        if force or not os.path.exists(folder.src(c, size)):
            if c in content.PHOTO_CLIPS and canvas is None:
                canvas = content.montage()
            log("hbd source %s %s" % (c, size))
            content.make_clip(c, size, FRAMES, folder.src(c, size), canvas, BIT_DEPTH)
        ref = yuv.read_i420(folder.src(c, size), w, h, bit_depth=BIT_DEPTH)
        for codec, q, kind in damage.variants(damage.HBD_CODECS):
            key = "%s-%s-%s" % (c, size, damage.label(codec, q))
            if key in done:
                continue
            src = folder.dmg(c, size, codec, q)
            if codec != "clean" and (key not in sizes or not os.path.exists(src)):
                log("hbd damage %s" % key)
                sizes[key] = damage.damage(codec, q, folder.src(c, size), w, h, src)
                sweep.save(sizes_path, sizes)
            out = os.path.join(workdir, "hbd.yuv")
            log("hbd auto %s" % key)
            filters.run_gst([auto.CHAIN], src, w, h, [out], FORMAT)
            with open(src, "rb") as a, open(out, "rb") as b:
                identical = a.read() == b.read()
            r = dict(content=c, size=size, codec=codec, q=q, kind=kind, identical=identical)
            if codec != "clean":
                r["bpp"] = sizes[key] * 8 / (FRAMES * w * h)
                dmg = yuv.read_i420(src, w, h, bit_depth=BIT_DEPTH)
                base = yuv.compare(ref, dmg, bit_depth=BIT_DEPTH)
                r["psnr_in"] = base["psnr_yuv"]
                r.update(
                    auto.gain(
                        yuv.compare(
                            ref, yuv.read_i420(out, w, h, bit_depth=BIT_DEPTH), bit_depth=BIT_DEPTH
                        ),
                        base,
                    )
                )
            os.remove(out)
            done[key] = r
            sweep.save(path, done)
    return done


def report(results):
    md = [
        "| clip | kind | bits per pixel | input PSNR-YUV (dB) | defaults: dPSNR-YUV "
        "| dSSIM-Y x1000 | worst plane dSSIM x1000 |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, r in sorted(results.items()):
        if r["kind"] == "clean":
            continue
        md.append(
            "| %s | %s | %.3f | %.2f | %+.3f | %+.3f | %+.4f |"
            % (
                key,
                r["kind"],
                r["bpp"],
                r["psnr_in"],
                r["psnr"],
                1000 * r["ssim_y"],
                1000 * min(r["ssim_" + p] for p in yuv.PLANES),
            )
        )
    md.append("")
    for kind in ("damaged", "light"):
        k = [r["psnr"] for r in results.values() if r["kind"] == kind]
        if k:
            md.append(
                "%s: %d clips, dPSNR-YUV mean %+.3f (worst %+.3f)."
                % (kind, len(k), statistics.mean(k), min(k))
            )
    clean = [r for r in results.values() if r["kind"] == "clean"]
    md.append(
        "Clean 10-bit clips passed through bit for bit: %d of %d."
        % (sum(r["identical"] for r in clean), len(clean))
    )
    return "\n".join(md) + "\n"


def run_stage(work, workdir, log, force):
    folder = folders.ClipFolders(work.path("hbd"), ())
    results = measure(folder, workdir, log, force)
    with open(folder.path("report.md"), "w") as f:
        f.write(report(results))
    log(open(folder.path("report.md")).read())
