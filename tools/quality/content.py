"""The undamaged source clips: scikit-image's photos as a slow pan and a slow
zoom over a montage, and videotestsrc patterns, as raw I420."""

import os
import subprocess

import numpy as np
import skimage.data
from skimage.transform import AffineTransform, rescale, warp

from yuv import rgb_to_i420, write_i420

SIZES = {"720p": (1280, 720), "1080p": (1920, 1080)}

# The photos are 300x451 to 500x741 samples. Scaled to rows of 400 (0.8x to
# 1.3x) they make a 1593x800 montage, two rows of three:
# coffee | motorcycle | astronaut  /  chelsea | rocket | astronaut (mirrored).
# 720p windows are cut from it at 0.9x to 1.0x, so they hold about the detail
# of the photos themselves; 1080p ones from the montage upscaled 1.5x.
_ROW = 400
_MONTAGE = (("coffee", "stereo_motorcycle", "astronaut"),
            ("chelsea", "rocket", "astronaut-mirrored"))

# Where each clip's 16:9 window lies on the montage, as fractions of the
# montage's width: (left, top, width) at the first and at the last frame.
PHOTO_CLIPS = {
    "photos-pan": ((0.0125, 0.025, 0.8), (0.1875, 0.05, 0.8)),
    "photos-zoom": ((0.05, 0.0, 0.88), (0.1, 0.05, 0.8)),
}

# Rendered by videotestsrc at the clip's size (sharp, full-band detail).
PATTERNS = {
    "zoneplate": "pattern=zone-plate kx2=20 ky2=20 kt=1",
    "spokes": "pattern=spokes",
}

CONTENTS = tuple(PHOTO_CLIPS) + tuple(PATTERNS)


def _photo(name):
    if name == "stereo_motorcycle":
        return skimage.data.stereo_motorcycle()[0]
    if name == "astronaut-mirrored":
        return skimage.data.astronaut()[:, ::-1]
    return getattr(skimage.data, name)()


def montage():
    rows = []
    for names in _MONTAGE:
        imgs = [_photo(n).astype(np.float64) / 255.0 for n in names]
        imgs = [rescale(im, _ROW / im.shape[0], order=3, channel_axis=2,
                        anti_aliasing=True) for im in imgs]
        rows.append(np.concatenate(imgs, axis=1))
    width = min(r.shape[1] for r in rows)
    return np.clip(np.concatenate([r[:, :width] for r in rows]), 0, 1)


def _windows(canvas, clip, w, h, frames):
    """Cubic resampling of the clip's window, moving linearly per frame."""
    cw = canvas.shape[1]
    first, last = PHOTO_CLIPS[clip]
    for i in range(frames):
        t = i / max(1, frames - 1)
        left, top, width = [(a + (b - a) * t) * cw for a, b in zip(first, last)]
        s = width / w
        # warp() maps output coordinates to input ones.
        m = AffineTransform(scale=(s, s), translation=(left, top))
        yield np.clip(warp(canvas, m, output_shape=(h, w), order=3,
                           mode="edge"), 0, 1)


def make_clip(name, size, frames, path, canvas=None):
    """Writes the clip to path; photo clips take the montage as `canvas`."""
    w, h = SIZES[size]
    if name in PHOTO_CLIPS:
        if size == "1080p":
            canvas = rescale(canvas, 1.5, order=3, channel_axis=2)
        planes = [[], [], []]
        for rgb in _windows(canvas, name, w, h, frames):
            for p, x in zip(planes, rgb_to_i420(rgb)):
                p.append(x)
        write_i420(path, [np.stack(p) for p in planes])
    else:
        tmp = path + ".part"
        cmd = ("gst-launch-1.0 -q videotestsrc %s num-buffers=%d ! "
               "video/x-raw,format=I420,width=%d,height=%d,framerate=30/1 ! "
               "filesink location=%s" % (PATTERNS[name], frames, w, h, tmp))
        subprocess.run(cmd.split(), check=True)
        os.replace(tmp, path)
