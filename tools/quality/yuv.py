"""Raw I420 clips and the metrics: PSNR and SSIM per plane, as FFmpeg's psnr
and ssim filters compute them (8x8 windows on a 4-sample grid for SSIM).
8-bit clips by default; 10-bit ones (I420_10LE: 16-bit little-endian words)
where `bit_depth` says 10."""

import math

import numpy as np

PLANES = ("y", "u", "v")


def frame_bytes(w, h):
    return w * h + 2 * ((w + 1) // 2) * ((h + 1) // 2)


def read_i420(path, w, h, frames=None, bit_depth=8):
    """Returns [Y, U, V], each uint8 (uint16 above 8 bits) of shape (n,
    rows, cols)."""
    raw = np.fromfile(path, dtype=np.uint8 if bit_depth == 8 else "<u2")
    fb = frame_bytes(w, h)
    n = len(raw) // fb
    if frames is not None:
        n = min(n, frames)
    raw = raw[: n * fb].reshape(n, fb)
    cw, ch = (w + 1) // 2, (h + 1) // 2
    y = raw[:, : w * h].reshape(n, h, w)
    u = raw[:, w * h : w * h + cw * ch].reshape(n, ch, cw)
    v = raw[:, w * h + cw * ch :].reshape(n, ch, cw)
    return [y, u, v]


def write_i420(path, planes):
    """uint8 planes as I420, uint16 ones as I420_10LE."""
    y, u, v = planes
    with open(path, "wb") as f:
        for i in range(y.shape[0]):
            for p in (y, u, v):
                f.write(np.ascontiguousarray(p[i], dtype=p.dtype.newbyteorder("<")).tobytes())


def rgb_to_i420(rgb, bit_depth=8):
    """RGB floats in [0, 1], shape (h, w, 3), even size -> BT.601 limited-range
    Y, U, V uint8 planes (chroma: 2x2 box average); uint16 of 10-bit values
    (the 8-bit levels times 4) where bit_depth is 10."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    yl = 0.299 * r + 0.587 * g + 0.114 * b
    cb = (b - yl) / 1.772
    cr = (r - yl) / 1.402
    h, w = yl.shape
    cb = cb.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
    cr = cr.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))

    k = 1 << (bit_depth - 8)

    def q(x):
        return np.clip(np.rint(x * k), 0, 255 * k).astype(np.uint8 if k == 1 else np.uint16)

    return q(16 + 219 * yl), q(128 + 224 * cb), q(128 + 224 * cr)


def i420_to_rgb(y, u, v):
    """One frame of BT.601 limited-range planes -> uint8 RGB (for crops)."""
    yf = (y.astype(np.float64) - 16) / 219
    uf = (np.repeat(np.repeat(u, 2, 0), 2, 1)[: y.shape[0], : y.shape[1]] - 128.0) / 224
    vf = (np.repeat(np.repeat(v, 2, 0), 2, 1)[: y.shape[0], : y.shape[1]] - 128.0) / 224
    r = yf + 1.402 * vf
    b = yf + 1.772 * uf
    g = (yf - 0.299 * r - 0.114 * b) / 0.587
    rgb = np.stack([r, g, b], axis=-1)
    return np.clip(np.rint(rgb * 255), 0, 255).astype(np.uint8)


PSNR_CAP = 100.0  # of identical planes, so that averages stay finite


def psnr(sse, samples, peak=255):
    if sse == 0:
        return PSNR_CAP
    return 10 * math.log10(float(peak) * peak * samples / sse)


def _ssim_plane(a, b, peak=255):
    """Mean SSIM of one plane pair (FFmpeg vf_ssim: sums over 4x4 blocks,
    8x8 windows from 2x2 of them, its constants for samples up to peak)."""
    h, w = a.shape[0] // 4 * 4, a.shape[1] // 4 * 4
    a = a[:h, :w].astype(np.float64)
    b = b[:h, :w].astype(np.float64)

    def block_sums(x):
        s = x.reshape(h // 4, 4, w // 4, 4).sum(axis=(1, 3))
        return s[:-1, :-1] + s[1:, :-1] + s[:-1, 1:] + s[1:, 1:]

    s1, s2 = block_sums(a), block_sums(b)
    ss = block_sums(a * a + b * b)
    s12 = block_sums(a * b)
    c1 = 0.01 * 0.01 * peak * peak * 64 * 64
    c2 = 0.03 * 0.03 * peak * peak * 64 * 63
    var = ss * 64 - s1 * s1 - s2 * s2
    covar = s12 * 64 - s1 * s2
    num = (2 * s1 * s2 + c1) * (2 * covar + c2)
    den = (s1 * s1 + s2 * s2 + c1) * (var + c2)
    return float((num / den).mean())


def compare(ref, test, ssim=True, bit_depth=8):
    """Per-plane PSNR (from the clip's total squared error), SSIM (mean over
    frames; left out when ssim is false), and PSNR of all samples pooled
    ("yuv"). Both as FFmpeg's psnr and ssim filters report them, at the
    clips' bit depth (peak 255 or 1023)."""
    peak = (1 << bit_depth) - 1
    out = {}
    sse_all = n_all = 0
    for name, r, t in zip(PLANES, ref, test):
        n = min(r.shape[0], t.shape[0])
        d = r[:n].astype(np.int32) - t[:n].astype(np.int32)
        sse = int(np.einsum("ijk,ijk->", d, d, dtype=np.int64))
        samples = d.size
        out["psnr_" + name] = psnr(sse, samples, peak)
        if ssim:
            out["ssim_" + name] = float(np.mean([_ssim_plane(r[i], t[i], peak) for i in range(n)]))
        sse_all += sse
        n_all += samples
    out["psnr_yuv"] = psnr(sse_all, n_all, peak)
    return out
