"""Where a benchmark's clips lie: undamaged ones in src/, their damaged
versions in dmg/, and the folders of the stages that use them."""

import os

import damage


class ClipFolders:
    def __init__(self, root, stage_folders):
        self.root = root
        for d in ("src", "dmg") + tuple(stage_folders):
            os.makedirs(os.path.join(root, d), exist_ok=True)

    def src(self, c, size):
        return os.path.join(self.root, "src", "%s-%s.yuv" % (c, size))

    def dmg(self, c, size, codec, q):
        if codec == "clean":
            return self.src(c, size)
        return os.path.join(self.root, "dmg", "%s-%s-%s.yuv" % (c, size, damage.label(codec, q)))

    def path(self, *parts):
        return os.path.join(self.root, *parts)
