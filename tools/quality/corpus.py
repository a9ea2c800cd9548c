"""The damage estimator's corpus (issue 16): more contents, sizes and codecs
than the benchmark's evaluation, few frames each, and per clip the best
setting of FFmpeg's filters and of the daedalus chain. See docs/estimator.md.

Kept under <work>/corpus/ apart from the benchmark's clips: src/ the clean
clips, dmg/ the damaged ones, base/ one JSON of sweep rows per clip."""

import os

import content
import damage
import folders

FRAMES = 4  # an I, two B and a P frame of the MPEG-2 GOP
# Four natural contents (photos-pan and photos-zoom share their photos;
# retina-pan and textures-pan show others), one synthetic one for ringing,
# 720p, and two of the natural ones at 1080p.
CLIPS = (
    ("photos-pan", "720p"),
    ("photos-zoom", "720p"),
    ("retina-pan", "720p"),
    ("textures-pan", "720p"),
    ("spokes", "720p"),
    ("photos-pan", "1080p"),
    ("retina-pan", "1080p"),
)
CODECS = damage.CORPUS_CODECS


def variants():
    return damage.variants(CODECS)


class Corpus(folders.ClipFolders):
    def __init__(self, work_root):
        super().__init__(os.path.join(work_root, "corpus"), ("base", "est"))

    def clips(self):
        """Every (content, size, codec, q, kind) of the corpus."""
        return [(c, size, codec, q, kind) for c, size in CLIPS for codec, q, kind in variants()]


def make(corpus, log, load, save, force=False, clips=CLIPS):
    """Writes the clean and damaged clips of `clips` (content, size); coded
    sizes into damage.json."""
    canvas = None
    for c, size in clips:
        if force or not os.path.exists(corpus.src(c, size)):
            if c in content.PHOTO_CLIPS and content.CANVAS.get(c) is None and canvas is None:
                canvas = content.montage()
            log("corpus source %s %s" % (c, size))
            content.make_clip(c, size, FRAMES, corpus.src(c, size), canvas)
    info_path = corpus.path("damage.json")
    info = {} if force or not os.path.exists(info_path) else load(info_path)
    for c, size, codec, q, _ in corpus.clips():
        if codec == "clean" or (c, size) not in clips:
            continue
        w, h = content.SIZES[size]
        key = "%s-%s-%s" % (c, size, damage.label(codec, q))
        if key not in info or not os.path.exists(corpus.dmg(c, size, codec, q)):
            log("corpus damage %s" % key)
            info[key] = damage.damage(
                codec, q, corpus.src(c, size), w, h, corpus.dmg(c, size, codec, q)
            )
            save(info_path, info)
    return info
