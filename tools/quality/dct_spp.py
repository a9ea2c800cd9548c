"""daedalusdeblock mode=dct against FFmpeg's spp, per damaged clip: the
PSNR gain of each filter at its best setting (a sweep of qp and shift
count), and what the dct defaults do to clean and lightly coded clips.

    GST_PLUGIN_PATH=$PWD/build/gst /usr/bin/python3 tools/quality/dct_spp.py \\
        --work /tmp/dct-spp SRC-1280x720.yuv ...

Each source is an undamaged raw I420 clip named <name>-<w>x<h>.yuv or
<name>-720p/-1080p.yuv; it is damaged as the main benchmark does
(damage.py) and every setting runs over all of its frames. With --crops
DIR, a before/after crop of each damaged clip's last frame (spp and
mode=dct at 8 and 16 shifts, each at its best qp) goes to DIR as PNG."""

import argparse
import json
import os
import re

import crop
import damage
import filters
import yuv

DAMAGES = [("mpeg2", 12), ("mpeg4", 12), ("mjpeg", 16), ("h264", 38)]
LIGHT = [("clean", 0), ("mpeg4", 3)]
SPP_QPS = (3, 4, 6, 8, 11, 16, 23)
DCT_QPS = (30, 34, 38, 41, 44, 47, 51)
DCT_SHIFTS = (1, 2, 4, 8, 16, 64)
SIZES = {"720p": (1280, 720), "1080p": (1920, 1080)}


def size_of(path):
    m = re.search(r"-(\d+)x(\d+)\.yuv$", path)
    if m:
        return int(m.group(1)), int(m.group(2))
    m = re.search(r"-(720p|1080p)\.yuv$", path)
    return SIZES[m.group(1)]


def settings():
    spp = ["spp=quality=3:qp=%d" % qp for qp in SPP_QPS]
    dct = [
        "daedalusdeblock backend=cpu mode=dct qp=%d shifts=%d" % (qp, s)
        for s in DCT_SHIFTS
        for qp in DCT_QPS
    ]
    return spp, dct


def sweep(ref, dmg, w, h, work):
    """{setting: psnr dict} for every setting on dmg, against ref."""
    clean = yuv.read_i420(ref, w, h)
    out = {"damaged": yuv.compare(clean, yuv.read_i420(dmg, w, h), ssim=False)}
    spp, dct = settings()
    for tool, batch in (("ffmpeg", spp), ("gst", dct)):
        for setting, path in filters.run_many(tool, batch, dmg, w, h, work, 12):
            out[setting] = yuv.compare(clean, yuv.read_i420(path, w, h), ssim=False)
            os.remove(path)
    return out


def best(results, prefix, key="psnr_yuv"):
    rows = [(r[key], s) for s, r in results.items() if s.startswith(prefix)]
    return max(rows)


def best_at(results, shifts):
    """The best mode=dct setting with `shifts` shifts."""
    return max((v["psnr_yuv"], k) for k, v in results.items() if k.endswith(" shifts=%d" % shifts))


def crops(results, src, dmg, w, h, name, label, work, folder):
    """source | damaged | spp | mode=dct at 8 and 16 shifts, each at its best
    qp, in the 144x108 window of the last frame that the damage hurt most."""
    chains = [best_at(results, n)[1] for n in (8, 16)]
    vf = best(results, "spp=")[1]
    outs = [os.path.join(work, "crop-%d.yuv" % i) for i in range(3)]
    filters.run_ffmpeg([vf], dmg, w, h, outs[:1])
    filters.run_gst(chains, dmg, w, h, outs[1:])
    source, damaged = yuv.read_i420(src, w, h), yuv.read_i420(dmg, w, h)
    frame = source[0].shape[0] - 1
    x, y = crop.most_damaged(source[0][frame], damaged[0][frame], 144, 108)
    heads = ["damaged", "FFmpeg " + vf] + [
        c.replace("daedalusdeblock backend=cpu ", "") for c in chains
    ]
    versions = [("damaged", damaged)] + [
        (hd, yuv.read_i420(o, w, h)) for hd, o in zip(heads[1:], outs)
    ]
    for o in outs:
        os.remove(o)
    path = os.path.join(folder, "dct-%s-%s.png" % (name, label))
    crop.figure(
        source,
        versions,
        "%s, %s: spp and mode=dct at their best qp" % (name, label),
        path,
        frame,
        x,
        y,
        144,
        108,
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--crops", help="folder for before/after crops (PNG)")
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    print(
        "| clip | damage | damaged dB | spp best | dct best (setting) | dct best at 1 / 2 / 4 / 8 / 16 / 64 shifts | dct qp=30 shifts=4 |"
    )
    print("|---|---|---|---|---|---|---|")
    for src in args.sources:
        w, h = size_of(src)
        name = os.path.basename(src)[: -len(".yuv")]
        for codec, q in DAMAGES + LIGHT:
            dmg = (
                src
                if codec == "clean"
                else os.path.join(args.work, "%s-%s.yuv" % (name, damage.label(codec, q)))
            )
            if codec != "clean" and not os.path.exists(dmg):
                damage.damage(codec, q, src, w, h, dmg)
            saved = os.path.join(args.work, "%s-%s.json" % (name, damage.label(codec, q)))
            if os.path.exists(saved):
                with open(saved) as f:
                    r = json.load(f)
            else:
                r = sweep(src, dmg, w, h, args.work)
                with open(saved, "w") as f:
                    json.dump(r, f)
            if args.crops and (codec, q) in DAMAGES:
                os.makedirs(args.crops, exist_ok=True)
                crops(r, src, dmg, w, h, name, damage.label(codec, q), args.work, args.crops)
            # A clean clip has no damage to measure from: its rows give the
            # filtered PSNR itself.
            base = 0.0 if codec == "clean" else r["damaged"]["psnr_yuv"]
            spp, d = best(r, "spp="), best(r, "daedalusdeblock")
            per_shift = " / ".join("%+.2f" % (best_at(r, n)[0] - base) for n in DCT_SHIFTS)
            dflt = r["daedalusdeblock backend=cpu mode=dct qp=30 shifts=4"]["psnr_yuv"]
            setting = d[1].replace("daedalusdeblock backend=cpu mode=dct ", "")
            print(
                "| %s | %s | %.2f | %+.2f (%s) | %+.2f (%s) | %s | %+.2f |"
                % (
                    name,
                    damage.label(codec, q),
                    r["damaged"]["psnr_yuv"],
                    spp[0] - base,
                    spp[1].split(":")[1],
                    d[0] - base,
                    setting,
                    per_shift,
                    dflt - base,
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
