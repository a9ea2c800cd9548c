"""The results as Markdown tables (work/report.md, pasted into
docs/quality.md), plots of gain vs bitrate and before/after crops (PNG)."""

import os
import statistics

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import content  # noqa: E402
import crop  # noqa: E402
import damage  # noqa: E402
import filters  # noqa: E402
import yuv  # noqa: E402
from evaluate import MIN_TIMED, tuned_settings  # noqa: E402

# Columns of the main tables, in order: (family, heading).
COLUMNS = (
    ("daedalus-deblock", "d-deblock"),
    ("daedalus-cdef", "d-cdef"),
    ("daedalus-chain", "d-chain"),
    ("daedalus-chain (defaults)", "d-chain dflt"),
    ("ffmpeg-deblock-weak", "deblock weak"),
    ("ffmpeg-deblock-strong", "deblock strong"),
    ("ffmpeg-pp7", "pp7"),
    ("ffmpeg-spp", "spp"),
    ("ffmpeg-fspp", "fspp"),
    ("ffmpeg-pp", "pp hb/vb/dr"),
)
PLOTTED = (
    "daedalus-deblock",
    "daedalus-cdef",
    "daedalus-chain",
    "daedalus-chain (defaults)",
    "ffmpeg-deblock-strong",
    "ffmpeg-pp7",
    "ffmpeg-spp",
    "ffmpeg-fspp",
    "ffmpeg-pp",
)
CODEC_NAMES = {
    "mpeg2": "MPEG-2",
    "mpeg4": "MPEG-4 part 2",
    "h264": "H.264, no in-loop deblock",
    "mjpeg": "MJPEG",
}

# Before/after crops: (file, title, clip, size, codec, q, family, frame,
# left, top, width, height); regions picked by eye where the damage shows.
CROPS = (
    (
        "deblock-mpeg2.png",
        "MPEG-2 qscale 24: daedalusdeblock",
        "photos-pan",
        "720p",
        "mpeg2",
        24,
        "daedalus-deblock",
        5,
        1088,
        24,
        144,
        108,
    ),
    (
        "cdef-h264.png",
        "H.264 QP 38, no in-loop deblock: daedaluscdef",
        "photos-pan",
        "720p",
        "h264",
        38,
        "daedalus-cdef",
        5,
        624,
        440,
        144,
        108,
    ),
    (
        "chain-mjpeg.png",
        "MJPEG qscale 31: daedalusdeblock ! daedaluscdef",
        "photos-pan",
        "720p",
        "mjpeg",
        31,
        "daedalus-chain",
        5,
        112,
        448,
        144,
        108,
    ),
    (
        "chain-mpeg4.png",
        "MPEG-4 part 2 qscale 24: daedalusdeblock ! daedaluscdef",
        "spokes",
        "720p",
        "mpeg4",
        24,
        "daedalus-chain",
        5,
        568,
        306,
        144,
        108,
    ),
)


def _mean(xs):
    xs = list(xs)
    return statistics.mean(xs) if xs else float("nan")


def _index(rows):
    """{(content, size, codec, q): {family: row}}."""
    out = {}
    for r in rows:
        out.setdefault((r["content"], r["size"], r["codec"], r["q"]), {})[r["family"]] = r
    return out


def _delta(idx, fam, metric, keep):
    """Mean over clips that keep(key) of fam's metric less the damaged one."""
    return _mean(g[fam][metric] - g["none"][metric] for k, g in idx.items() if keep(k) and fam in g)


def _damages(rows):
    seen = []
    for codec, q, kind in damage.variants():
        if any(r["codec"] == codec and r["q"] == q for r in rows):
            seen.append((codec, q, kind))
    return seen


def _fmt(v, digits=2):
    return "%+.*f" % (digits, v) if v == v else "n/a"


def gain_table(rows, metric, scale=1.0, digits=2):
    idx = _index(rows)
    head = "| damage | bpp | damaged | " + " | ".join(h for _, h in COLUMNS) + " |"
    lines = [head, "|" + "---|" * (3 + len(COLUMNS))]
    for codec, q, kind in _damages(rows):

        def keep(k):
            return k[2] == codec and k[3] == q

        base = _mean(g["none"][metric] for k, g in idx.items() if keep(k))
        bpp = _mean(g["none"]["bpp"] for k, g in idx.items() if keep(k) and g["none"]["bpp"])
        if codec == "clean" and metric.startswith("psnr"):
            # No damage: the output's own PSNR, not a gain over infinity.
            cells = [
                "(%.1f)" % _mean(g[fam][metric] for k, g in idx.items() if keep(k) and fam in g)
                for fam, _ in COLUMNS
            ]
        else:
            cells = [_fmt(_delta(idx, fam, metric, keep) * scale, digits) for fam, _ in COLUMNS]
        name = damage.label(codec, q) + (" (light)" if kind == "light" else "")
        lines.append(
            "| %s | %s | %.*f | %s |"
            % (
                name,
                "%.3f" % bpp if bpp == bpp else "-",
                digits if scale == 1 else 3,
                base,
                " | ".join(cells),
            )
        )
    return "\n".join(lines)


def plane_table(rows):
    """Per-plane gains of each filter, mean over every damaged clip."""
    idx = _index(rows)
    fams = [f for f, _ in COLUMNS] + ["daedalus-deblock (defaults)", "daedalus-cdef (defaults)"]
    lines = [
        "| filter | dPSNR Y | dPSNR U | dPSNR V | dSSIM Y | dSSIM U | dSSIM V |",
        "|---|---|---|---|---|---|---|",
    ]

    def dmg(k):
        return idx[k]["none"]["kind"] == "damaged"

    for fam in fams:
        cells = [_fmt(_delta(idx, fam, "psnr_" + p, dmg)) for p in yuv.PLANES]
        cells += [_fmt(_delta(idx, fam, "ssim_" + p, dmg), 4) for p in yuv.PLANES]
        lines.append("| %s | %s |" % (fam, " | ".join(cells)))
    return "\n".join(lines)


def protected_table(rows):
    """The recommended defaults on clean and light clips: worst and mean."""
    idx = _index(rows)
    lines = [
        "| filter (recommended defaults) | clips | worst dPSNR-YUV (clean: PSNR-YUV) "
        "| mean dPSNR-YUV (clean: PSNR-YUV) | worst dSSIM-Y |",
        "|---|---|---|---|---|",
    ]
    for fam in (
        "daedalus-deblock (defaults)",
        "daedalus-cdef (defaults)",
        "daedalus-chain (defaults)",
    ):
        for kind in ("clean", "light"):
            ks = [k for k, g in idx.items() if g["none"]["kind"] == kind and fam in g]
            base = 0 if kind == "clean" else 1
            d = [idx[k][fam]["psnr_yuv"] - base * idx[k]["none"]["psnr_yuv"] for k in ks]
            s = [idx[k][fam]["ssim_y"] - idx[k]["none"]["ssim_y"] for k in ks]
            lines.append(
                "| %s | %s (%d) | %s | %s | %s |"
                % (fam, kind, len(ks), _fmt(min(d), 3), _fmt(_mean(d), 3), _fmt(min(s), 4))
            )
    return "\n".join(lines)


def content_table(rows):
    """The chain's gain per content (damaged clips), tuned and defaults."""
    idx = _index(rows)
    clips = sorted({(k[0], k[1]) for k in idx})
    lines = [
        "| clip | damaged PSNR-YUV | d-chain | d-chain dflt | best FFmpeg (spp) |",
        "|---|---|---|---|---|",
    ]
    for c, size in clips:

        def keep(k):
            return k[0] == c and k[1] == size and idx[k]["none"]["kind"] == "damaged"

        base = _mean(g["none"]["psnr_yuv"] for k, g in idx.items() if keep(k))
        lines.append(
            "| %s %s | %.2f | %s | %s | %s |"
            % (
                c,
                size,
                base,
                _fmt(_delta(idx, "daedalus-chain", "psnr_yuv", keep)),
                _fmt(_delta(idx, "daedalus-chain (defaults)", "psnr_yuv", keep)),
                _fmt(_delta(idx, "ffmpeg-spp", "psnr_yuv", keep)),
            )
        )
    return "\n".join(lines)


def tuned_table(best):
    lines = [
        "| damage | daedalusdeblock | daedaluscdef | chain: CDEF after the deblock "
        "| pp7 | spp | fspp | pp (fq) |",
        "|---|---|---|---|---|---|---|---|",
    ]

    def cdef_short(s):
        p = dict(kv.split("=") for kv in s.split()[1:])
        return "pri=%s sec=%s damping=%s" % (p["pri-strength"], p["sec-strength"], p["damping"])

    for codec, q, _ in damage.variants():
        b = best.get((codec, q))
        if not b:
            continue
        qp = [
            b["ffmpeg-" + f].split("qp=")[-1].split("|")[-1] for f in ("pp7", "spp", "fspp", "pp")
        ]
        lines.append(
            "| %s | %s | %s | %s | %s |"
            % (
                damage.label(codec, q),
                b["daedalus-deblock"]
                .replace("daedalusdeblock ", "")
                .replace("block-size", "block"),
                cdef_short(b["daedalus-cdef"]),
                cdef_short(b["daedalus-chain"]),
                " | ".join(qp),
            )
        )
    return "\n".join(lines)


def ranked_table(ranked, what):
    lines = [
        "| %s | mean dPSNR-YUV, damaged | worst dPSNR-YUV, light "
        "| worst PSNR-YUV, clean |" % what,
        "|---|---|---|---|",
    ]
    for mean, worst, clean, setting in ranked:
        lines.append("| `%s` | %+.3f | %+.3f | %.1f |" % (_short(setting), mean, worst, clean))
    return "\n".join(lines)


def speed_table(speed):
    bound = "> %d" % (speed["frames"] / MIN_TIMED)

    def fps(v):
        return bound if v is None else "%.1f" % v

    lines = ["| filter | setting | fps per CPU second | fps (wall) |", "|---|---|---|---|"]
    for fam, r in sorted(speed["fps"].items(), key=lambda x: -(x[1]["cpu"] or 1e9)):
        setting = speed["settings"][fam]
        if "daedalus" in setting:
            setting = _short(setting)
        # A "|" would end the Markdown table cell, even inside backticks.
        lines.append(
            "| %s | `%s` | %s | %s |"
            % (fam, setting.replace("|", "\\|"), fps(r["cpu"]), fps(r["wall"]))
        )
    return "\n".join(lines)


def plot(rows, metric, ylabel, path):
    idx = _index(rows)
    fig, axes = plt.subplots(2, 2, figsize=(10, 7.6), dpi=72)
    for ax, codec in zip(axes.ravel(), damage.CODECS):
        qs = [q for c, q, kind in _damages(rows) if c == codec]
        for fam in PLOTTED:
            xs, ys = [], []
            for q in qs:

                def keep(k):
                    return k[2] == codec and k[3] == q

                xs.append(_mean(g["none"]["bpp"] for k, g in idx.items() if keep(k)))
                ys.append(_delta(idx, fam, metric, keep))
            style = "-o" if fam.startswith("daedalus") else "--x"
            ax.plot(xs, ys, style, label=fam, markersize=4)
        ax.axhline(0, color="black", linewidth=0.5)
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1, 2, 5)))
        ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%.2g"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_title(CODEC_NAMES[codec], fontsize=10)
        ax.set_xlabel("bits per pixel (lowest = heaviest damage)", fontsize=8)
        ax.set_ylabel(ylabel, fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=5, fontsize=8)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.savefig(path)
    plt.close(fig)


def _short(setting):
    """A gst chain without the element names' prefix and the chroma
    strengths (equal to luma's here), for captions."""
    out = []
    for part in setting.split(" ! "):
        words = part.split()
        kept = [x for x in words[1:] if not x.startswith("uv-")]
        out.append(words[0].replace("daedalus", "") + (" " if kept else "") + " ".join(kept))
    return " ! ".join(out)


def crops(work, best, rec, docs):
    """source | damaged | the daedalus element | FFmpeg's spp, each tuned to
    the damage; frame `frame`, shown at twice its size."""
    for name, title, c, size, codec, q, fam, frame, x, y, cw, ch in CROPS:
        w, h = content.SIZES[size]
        settings = tuned_settings(best[(codec, q)], rec["settings"])
        dmg_path = work.dmg(c, size, codec, q)
        outs = [os.path.join(work.tmp, "crop-d.yuv"), os.path.join(work.tmp, "crop-f.yuv")]
        filters.run_gst([settings[fam][1]], dmg_path, w, h, outs[:1])
        filters.run_ffmpeg([settings["ffmpeg-spp"][1]], dmg_path, w, h, outs[1:])
        heads = ["damaged", "daedalus", "FFmpeg " + settings["ffmpeg-spp"][1]]
        versions = [(hd, yuv.read_i420(p, w, h)) for hd, p in zip(heads, [dmg_path] + outs)]
        for o in outs:
            os.remove(o)
        crop.figure(
            yuv.read_i420(work.src(c, size), w, h),
            versions,
            "%s (daedalus: %s)" % (title, _short(settings[fam][1])),
            os.path.join(docs, name),
            frame,
            x,
            y,
            cw,
            ch,
        )


def write(rows, best, rec, speed, work, docs):
    os.makedirs(docs, exist_ok=True)
    plot(rows, "psnr_yuv", "PSNR-YUV gain (dB)", os.path.join(docs, "gain-psnr.png"))
    plot(rows, "ssim_y", "SSIM-Y gain", os.path.join(docs, "gain-ssim.png"))
    crops(work, best, rec, docs)
    parts = [
        "## PSNR-YUV gain (dB), mean over clips\n\n" + gain_table(rows, "psnr_yuv"),
        "## SSIM-Y gain (x1000), mean over clips\n\n" + gain_table(rows, "ssim_y", 1000, 1),
        "## Per plane, mean over damaged clips\n\n" + plane_table(rows),
        "## Per clip (damaged clips)\n\n" + content_table(rows),
        "## Recommended defaults on clean and light clips\n\n" + protected_table(rows),
        "## Tuned settings\n\n" + tuned_table(best),
        "## Deblock candidates (sweep, block-size 8)\n\n"
        + ranked_table(rec["deblock_ranked"], "deblock"),
        "## CDEF candidates (sweep)\n\n" + ranked_table(rec["cdef_ranked"], "cdef"),
        "## The defaults chained, and the best pair whose chain passes too (sweep)\n\n"
        + ranked_table([rec["chain"]] + rec["strict_pair"], "setting"),
    ]
    if speed:
        parts.append(
            "## Speed (%s, %d frames, %d CPUs, load average up to %.1f)\n\n"
            % (speed["clip"], speed["frames"], speed["cpus"], speed["load"])
            + speed_table(speed)
        )
    with open(work.path("report.md"), "w") as f:
        f.write("\n\n".join(parts) + "\n")
