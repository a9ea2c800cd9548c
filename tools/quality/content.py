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
_MONTAGE = (
    ("coffee", "stereo_motorcycle", "astronaut"),
    ("chelsea", "rocket", "astronaut-mirrored"),
)

# The estimator's corpus adds two canvases of other pictures (all from
# python3-skimage): `retina` (retina.jpg, 1411x1411, a fundus photograph:
# large smooth dark areas, fine vessels) and `textures` (grass, gravel, brick
# / camera, moon, grey, and the top left of hubble_deep_field, in colour;
# each 512x512 at its own scale: high texture almost everywhere).
_TEXTURES = (("grass", "gravel", "brick"), ("camera", "moon", "hubble_deep_field"))

# Where each clip's 16:9 window lies on its canvas, as fractions of the
# canvas's width: (left, top, width) at the first and at the last frame.
PHOTO_CLIPS = {
    "photos-pan": ((0.0125, 0.025, 0.8), (0.1875, 0.05, 0.8)),
    "photos-zoom": ((0.05, 0.0, 0.88), (0.1, 0.05, 0.8)),
    "retina-pan": ((0.05, 0.3, 0.85), (0.1, 0.33, 0.85)),
    "textures-pan": ((0.0, 0.02, 0.8), (0.05, 0.06, 0.8)),
}
CANVAS = {"retina-pan": "retina", "textures-pan": "textures"}

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
        imgs = [
            rescale(im, _ROW / im.shape[0], order=3, channel_axis=2, anti_aliasing=True)
            for im in imgs
        ]
        rows.append(np.concatenate(imgs, axis=1))
    width = min(r.shape[1] for r in rows)
    return np.clip(np.concatenate([r[:, :width] for r in rows]), 0, 1)


def canvas_for(clip, montage_canvas=None):
    """The canvas a photo clip moves over (the montage unless CANVAS names
    another); montage_canvas, when given, is the montage already made."""
    name = CANVAS.get(clip, "montage")
    if name == "montage":
        return montage_canvas if montage_canvas is not None else montage()
    if name == "retina":
        return skimage.data.retina().astype(np.float64) / 255.0
    rows = []
    for names in _TEXTURES:
        imgs = [getattr(skimage.data, n)()[:512, :512].astype(np.float64) / 255.0 for n in names]
        rows.append(
            np.concatenate(
                [im if im.ndim == 3 else np.repeat(im[..., None], 3, axis=2) for im in imgs], axis=1
            )
        )
    return np.concatenate(rows)


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
        yield np.clip(warp(canvas, m, output_shape=(h, w), order=3, mode="edge"), 0, 1)


def make_clip(name, size, frames, path, canvas=None, bit_depth=8):
    """Writes the clip to path; photo clips take the montage as `canvas`
    (those on another canvas make their own). Photo clips only at bit_depth
    10 (I420_10LE)."""
    w, h = SIZES[size]
    if name in PHOTO_CLIPS:
        canvas = canvas_for(name, canvas)
        if size == "1080p":
            canvas = rescale(canvas, 1.5, order=3, channel_axis=2)
        planes = [[], [], []]
        for rgb in _windows(canvas, name, w, h, frames):
            for p, x in zip(planes, rgb_to_i420(rgb, bit_depth)):
                p.append(x)
        write_i420(path, [np.stack(p) for p in planes])
    else:
        assert bit_depth == 8, "synthetic clips are 8-bit only"
        tmp = path + ".part"
        cmd = (
            "gst-launch-1.0 -q videotestsrc %s num-buffers=%d ! "
            "video/x-raw,format=I420,width=%d,height=%d,framerate=30/1 ! "
            "filesink location=%s" % (PATTERNS[name], frames, w, h, tmp)
        )
        subprocess.run(cmd.split(), check=True)
        os.replace(tmp, path)
