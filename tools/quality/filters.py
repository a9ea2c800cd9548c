"""The filters compared, run on raw I420 files: daedalus elements through
gst-launch-1.0, FFmpeg's post-processing filters through ffmpeg. Many
settings of one tool run in one process (a tee / split per setting)."""

import itertools
import os
import resource
import subprocess
import time

# FFmpeg post-processing filters (uspp is not in Debian's build). Each takes
# a qp in MPEG qscale units: pp7/spp/fspp as `qp`, libpostproc's pp as its
# forced quantiser `fq` (with no qp given they get none from raw frames).
FFMPEG_QP_FILTERS = {
    "pp7": "pp7=qp={qp}",
    "spp": "spp=qp={qp}",
    "fspp": "fspp=qp={qp}",
    "pp": "pp=hb/vb/dr/fq|{qp}",
}
FFMPEG_QPS = (2, 3, 4, 6, 8, 11, 16, 23, 31)


def ffmpeg_settings(block):
    """Every FFmpeg setting the sweep tries (-vf strings)."""
    out = ["deblock=filter=%s:block=%d" % (s, block) for s in ("weak", "strong")]
    for fmt in FFMPEG_QP_FILTERS.values():
        out += [fmt.format(qp=qp) for qp in FFMPEG_QPS]
    return out


def deblock_props(qp, bs, block):
    return "daedalusdeblock qp=%d bs=%d block-size=%d" % (qp, bs, block)


def cdef_props(pri, sec, damping):
    # Chroma gets the luma strengths (the sweep ties them).
    return (
        "daedaluscdef pri-strength=%d sec-strength=%d uv-pri-strength=%d "
        "uv-sec-strength=%d damping=%d" % (pri, sec, pri, sec, damping)
    )


def deblock_settings(qps, blocks):
    return [deblock_props(qp, bs, b) for b, bs, qp in itertools.product(blocks, (1, 2, 3, 4), qps)]


def cdef_settings(dampings, pris, secs):
    """Every combination but the one that filters nothing."""
    return [cdef_props(p, s, d) for d, p, s in itertools.product(dampings, pris, secs) if p or s]


def _children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(cmd):
    """Runs cmd; returns (wall seconds, CPU seconds of it and its threads)."""
    cpu0, t0 = _children_cpu(), time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    if p.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (cmd[0], p.stdout[-2000:]))
    return wall, cpu


def raw_source(src, w, h, fmt="i420"):
    """A gst-launch-1.0 command line up to the frames of the raw clip src;
    `fmt` is rawvideoparse's name of the clip's format."""
    return [
        "gst-launch-1.0",
        "-q",
        "filesrc",
        "location=" + src,
        "!",
        "rawvideoparse",
        "width=%d" % w,
        "height=%d" % h,
        "format=" + fmt,
        "framerate=30/1",
    ]


def run_gst(chains, src, w, h, outs, fmt="i420"):
    """Each of `chains` ("element props ! element props") on src into the
    matching file of outs, in one gst-launch-1.0 process (`fmt`: as
    raw_source's)."""
    cmd = raw_source(src, w, h, fmt)
    if len(chains) == 1:
        cmd += ["!"] + chains[0].split() + ["!", "filesink", "location=" + outs[0]]
    else:
        cmd += ["!", "tee", "name=t"]
        for chain, out in zip(chains, outs):
            cmd += ["t.", "!", "queue", "!"] + chain.split() + ["!", "filesink", "location=" + out]
    return _run(cmd)


def run_ffmpeg(vfs, src, w, h, outs):
    """Each -vf of `vfs` on src into the matching file of outs, in one ffmpeg
    process."""
    cmd = [
        "ffmpeg",
        "-nostdin",
        "-loglevel",
        "error",
        "-y",
        "-f",
        "rawvideo",
        "-pix_fmt",
        "yuv420p",
        "-s",
        "%dx%d" % (w, h),
        "-i",
        src,
    ]
    if len(vfs) == 1:
        cmd += ["-vf", vfs[0], "-f", "rawvideo", outs[0]]
    else:
        graph = "[0:v]split=%d%s" % (len(vfs), "".join("[i%d]" % i for i in range(len(vfs))))
        for i, vf in enumerate(vfs):
            graph += ";[i%d]%s[o%d]" % (i, vf, i)
        cmd += ["-filter_complex", graph]
        for i, out in enumerate(outs):
            cmd += ["-map", "[o%d]" % i, "-f", "rawvideo", out]
    return _run(cmd)


def run_many(tool, settings, src, w, h, workdir, batch=24):
    """Runs settings (gst chains or -vf strings) in batches; yields
    (setting, output file) as each batch finishes. The caller deletes them."""
    run = run_gst if tool == "gst" else run_ffmpeg
    for i in range(0, len(settings), batch):
        part = settings[i : i + batch]
        outs = [os.path.join(workdir, "out%d.yuv" % j) for j in range(len(part))]
        run(part, src, w, h, outs)
        yield from zip(part, outs)


def timed(tool, setting, src, w, h, out):
    """(wall, cpu) seconds of one setting alone, and of the same process with
    no filter; the caller subtracts the second (start-up, file I/O)."""
    if tool == "gst":
        return run_gst([setting], src, w, h, [out]), run_gst(["identity"], src, w, h, [out])
    return run_ffmpeg([setting], src, w, h, [out]), run_ffmpeg(["null"], src, w, h, [out])
