"""Damage the way real pipelines do: encode with FFmpeg at a fixed quantiser,
decode back to raw I420."""

import os
import subprocess

# codec -> (FFmpeg encoder arguments with {q}, container suffix, the block
# grid its artefacts sit on, the quantisers: light first, then damaged ones).
# MPEG-2/4 and MJPEG take -qscale (2..31, MPEG units); H.264 a constant QP
# (x264 codes I frames 3 lower), with its in-loop deblocking off.
CODECS = {
    "mpeg2": ("-c:v mpeg2video -qscale:v {q} -g 12 -bf 2", "m2v", 8, [3, 6, 12, 24]),
    "mpeg4": ("-c:v mpeg4 -qscale:v {q} -g 12", "m4v", 8, [3, 6, 12, 24]),
    "h264": (
        "-c:v libx264 -preset medium -qp {q} -x264-params no-deblock=1",
        "264",
        4,
        [24, 32, 38, 44],
    ),
    "mjpeg": ("-c:v mjpeg -qscale:v {q}", "mjpeg", 8, [3, 8, 16, 31]),
}

# The estimator's corpus (corpus.py) adds H.264 with its in-loop deblocking
# on: damage that a decoder has already filtered, which an automatic
# setting must recognise and leave (mostly) alone.
CORPUS_CODECS = dict(
    CODECS, h264lf=("-c:v libx264 -preset medium -qp {q}", "264", 4, [24, 32, 38, 44])
)


# 10-bit damage (issue 12): HEVC Main10 (x265) at a constant QP with both
# in-loop filters (deblocking and SAO) off, decoded to I420_10LE.
HBD_CODECS = {
    "hevc10": (
        "-c:v libx265 -preset medium -x265-params qp={q}:no-deblock=1:no-sao=1:log-level=error",
        "hevc",
        8,
        [24, 32, 38, 44],
    ),
}


def variants(codecs=None):
    """Every damage: (codec, q, kind) with kind 'light' or 'damaged'; plus
    the undamaged clip as ('clean', 0, 'clean'). codecs: CODECS unless
    given (e.g. CORPUS_CODECS)."""
    out = [("clean", 0, "clean")]
    for codec, (_, _, _, qs) in (codecs or CODECS).items():
        out.append((codec, qs[0], "light"))
        out += [(codec, q, "damaged") for q in qs[1:]]
    return out


def label(codec, q):
    return "clean" if codec == "clean" else "%s-q%d" % (codec, q)


def _pix_fmt(codec):
    # MJPEG is full range: calling the same bytes yuvj420p on both sides
    # keeps FFmpeg from converting the range.
    if codec in HBD_CODECS:
        return "yuv420p10le"
    return "yuvj420p" if codec == "mjpeg" else "yuv420p"


def damage(codec, q, src, w, h, out_yuv):
    """Encodes src, decodes to out_yuv; returns the coded size in bytes."""
    args, suffix, _, _ = dict(CORPUS_CODECS, **HBD_CODECS)[codec]
    coded = out_yuv[: -len(".yuv")] + "." + suffix
    pf = _pix_fmt(codec)
    ff = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y"]
    subprocess.run(
        ff
        + ["-f", "rawvideo", "-pix_fmt", pf, "-s", "%dx%d" % (w, h), "-r", "30", "-i", src]
        + args.format(q=q).split()
        + [coded],
        check=True,
    )
    tmp = out_yuv + ".part"
    subprocess.run(ff + ["-i", coded, "-f", "rawvideo", "-pix_fmt", pf, tmp], check=True)
    os.replace(tmp, out_yuv)
    size = os.path.getsize(coded)
    os.remove(coded)
    return size
