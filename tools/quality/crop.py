"""Before/after crops: one frame's region of a source and of its damaged
and filtered versions, side by side at twice their size (PNG)."""

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import yuv  # noqa: E402


def most_damaged(src_y, dmg_y, cw, ch, step=8):
    """(left, top) of the cw x ch window of a frame's luma, on a grid of
    `step`, where the damage's squared error is largest: where a filter has
    the most to mend, found the same way on every run."""
    err = (src_y.astype(np.int64) - dmg_y.astype(np.int64)) ** 2
    sums = np.pad(err.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    best, at = -1, (0, 0)
    for y in range(0, src_y.shape[0] - ch + 1, step):
        for x in range(0, src_y.shape[1] - cw + 1, step):
            s = sums[y + ch, x + cw] - sums[y, x + cw] - sums[y + ch, x] + sums[y, x]
            if s > best:
                best, at = s, (x, y)
    return at


def cut(planes, frame, x, y, cw, ch):
    """The crop of frame `frame` of I420 planes, as a 1-frame clip."""
    return [
        p[frame : frame + 1, (y >> s) : (y + ch) >> s, (x >> s) : (x + cw) >> s]
        for p, s in zip(planes, (0, 1, 1))
    ]


def figure(source, versions, title, path, frame, x, y, cw, ch):
    """Writes `path`: the source's crop, then each of `versions` ((heading,
    I420 planes) pairs) with its crop's PSNR-Y against the source's."""
    ref = cut(source, frame, x, y, cw, ch)
    panels = [(yuv.i420_to_rgb(*[p[0] for p in ref]), "source")]
    for head, planes in versions:
        crop = cut(planes, frame, x, y, cw, ch)
        db = yuv.compare(ref, crop, ssim=False)["psnr_y"]
        panels.append((yuv.i420_to_rgb(*[p[0] for p in crop]), "%s (%.1f dB)" % (head, db)))
    n = len(panels)
    fig, axes = plt.subplots(1, n, figsize=(n * cw * 2 / 72, ch * 2 / 72 + 0.7), dpi=72)
    for ax, (im, head) in zip(axes, panels):
        ax.imshow(im, interpolation="nearest")
        ax.set_title(head, fontsize=8)
        ax.axis("off")
    fig.suptitle(title, fontsize=9)
    fig.subplots_adjust(left=0, right=1, bottom=0, top=0.84, wspace=0.02)
    fig.savefig(path)
    plt.close(fig)
