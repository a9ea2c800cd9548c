"""The auto strength's figures for docs/quality.md: the defaults' gain
against each clip's bitrate, per damage and content, and before/after
crops of a few corpus clips through the chain at its defaults."""

import os

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import content  # noqa: E402
import corpus  # noqa: E402
import damage  # noqa: E402
import filters  # noqa: E402
import sweep  # noqa: E402
import yuv  # noqa: E402

CODEC_NAMES = {
    "mpeg2": "MPEG-2",
    "mpeg4": "MPEG-4 part 2",
    "h264": "H.264, no loop filter",
    "mjpeg": "MJPEG",
    "h264lf": "H.264 with its loop filter",
}

# Before/after crops: (clip, size, codec, q, frame, left, top, width,
# height); regions picked by eye where the damage shows.
CROPS = (
    ("photos-pan", "720p", "mpeg2", 12, 2, 1088, 24, 120, 90),
    ("photos-pan", "720p", "h264", 38, 2, 624, 440, 120, 90),
    ("retina-pan", "720p", "mjpeg", 16, 2, 560, 300, 120, 90),
)


def gain_vs_bitrate(results, coded, path):
    """dPSNR-YUV of the defaults against bits per pixel: one panel per
    damage, one line per content and size; `coded` the corpus's coded sizes
    (damage.json)."""
    fig, axes = plt.subplots(2, 3, figsize=(10, 6), dpi=64)
    where = sorted({(r["content"], r["size"]) for r in results.values()})
    for ax, codec in zip(axes.ravel(), CODEC_NAMES):
        for c, size in where:
            w, h = content.SIZES[size]
            pts = sorted(
                (coded[key] * 8 / (corpus.FRAMES * w * h), r["psnr"])
                for key, r in results.items()
                if r["codec"] == codec and (r["content"], r["size"]) == (c, size) and key in coded
            )
            if pts:
                ax.plot(*zip(*pts), "-o", markersize=3, label="%s %s" % (c, size))
        ax.axhline(0, color="black", linewidth=0.5)
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%.2g"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_title(CODEC_NAMES[codec], fontsize=9)
        ax.set_xlabel("bits per pixel", fontsize=7)
        ax.set_ylabel("dPSNR-YUV (dB)", fontsize=7)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    axes[1, 2].axis("off")
    axes[1, 2].legend(handles, labels, loc="center", fontsize=8, title="content")
    fig.suptitle("daedalusdeblock ! daedaluscdef at the defaults (auto strength)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def crops(cp, chain, workdir, path):
    """source | damaged | `chain` (at its defaults), a row per CROPS entry,
    each crop shown at twice its size with its luma PSNR."""
    rows = []
    for c, size, codec, q, frame, x, y, cw, ch in CROPS:
        w, h = content.SIZES[size]
        dmg = cp.dmg(c, size, codec, q)
        out = os.path.join(workdir, "auto-crop.yuv")
        filters.run_gst([chain], dmg, w, h, [out])

        def cut(planes):
            # The crop of frame `frame`, as a 1-frame clip.
            return [
                p[frame : frame + 1, (y >> s) : (y + ch) >> s, (x >> s) : (x + cw) >> s]
                for p, s in zip(planes, (0, 1, 1))
            ]

        src = cut(yuv.read_i420(cp.src(c, size), w, h))
        panels = [(yuv.i420_to_rgb(*[p[0] for p in src]), "source")]
        for name, clip in (("damaged", dmg), ("defaults", out)):
            crop = cut(yuv.read_i420(clip, w, h))
            psnr = yuv.compare(src, crop, ssim=False)["psnr_y"]
            panels.append((yuv.i420_to_rgb(*[p[0] for p in crop]), "%s (%.1f dB)" % (name, psnr)))
        os.remove(out)
        rows.append(("%s %s %s" % (c, size, damage.label(codec, q)), panels, cw, ch))
    cw, ch = rows[0][2], rows[0][3]
    fig, axes = plt.subplots(
        len(rows), 3, figsize=(3 * cw * 2 / 72, len(rows) * (ch * 2 / 72 + 0.35)), dpi=72
    )
    for (title, panels, _, _), line in zip(rows, axes):
        for ax, (im, head) in zip(line, panels):
            ax.imshow(im, interpolation="nearest")
            ax.set_title("%s: %s" % (title, head), fontsize=7)
            ax.axis("off")
    fig.subplots_adjust(left=0, right=1, bottom=0, top=0.95, wspace=0.02, hspace=0.15)
    fig.savefig(path)
    plt.close(fig)


def write(cp, results, chain, workdir, docs):
    os.makedirs(docs, exist_ok=True)
    coded = sweep.load(cp.path("damage.json"))
    gain_vs_bitrate(results, coded, os.path.join(docs, "auto-gain-bitrate.png"))
    crops(cp, chain, workdir, os.path.join(docs, "auto-crops.png"))
