"""
Training photos for the enlarge, denoise and deblur nets (dev only, never in CI): photographs that
Debian packages install, read in place (nothing is copied into the repository). Each entry names its
package; the licences are in server/engines/weights/README.md.

Left out on purpose: every photo of a measuring set — the quality harness's fixtures (tests/fixtures:
GreenMeadow, YellowFlower, LadyBird, Storm, sunset, elephants and the wallpapers/ photos, which are
Debian wallpapers too: aitzgorri, bridge, bythewater, dragonfly, dune, garden, kite, life, path,
picosdeeuropa) — and the benchmark sets (Set5, Set14, Urban100, CBSD68), which are only read by
`npm run quality` from QUALITY_BENCH_DIR.
"""
import os
import numpy as np
from PIL import Image

BG = '/usr/share/backgrounds'
WP = '/usr/share/wallpapers'


def _wp(name, size='1280x1024.jpg'):
    return os.path.join(WP, name, 'contents', 'images', size)


# (path, package)
PHOTOS = [
    (os.path.join(BG, 'Kleiber_by_Lukas_Baubkus.jpg'), 'lomiri-wallpapers-20.04'),
    (os.path.join(BG, 'Picture_0B_by_freespace.jpg'), 'lomiri-wallpapers-16.04'),
    (os.path.join(BG, 'Picture_1A_by_freespace.jpg'), 'lomiri-wallpapers-16.04'),
    (os.path.join(BG, 'Wine_by_Jakkub_Mede.jpg'), 'lomiri-wallpapers-16.04'),
    (os.path.join(BG, 'analogpattern_by_Peter_Nerlich.jpg'), 'lomiri-wallpapers-16.04'),
    (os.path.join(BG, 'free_by_Peter_Nerlich.jpg'), 'lomiri-wallpapers-16.04'),
    (os.path.join(BG, 'friends_by_Aitzol_Berasategi.jpg'), 'lomiri-wallpapers-16.04'),
    (os.path.join(BG, 'greentock_by_Peter_Nerlich.jpg'), 'lomiri-wallpapers-16.04'),
    (os.path.join(BG, 'seeding_by_Clements_Engelhardt.jpg'), 'lomiri-wallpapers-16.04'),
    (os.path.join(BG, 'mate/nature/Aqua.jpg'), 'mate-backgrounds'),
    (os.path.join(BG, 'mate/nature/Blinds.jpg'), 'mate-backgrounds'),
    (os.path.join(BG, 'mate/nature/FreshFlower.jpg'), 'mate-backgrounds'),
    (os.path.join(BG, 'mate/nature/RainDrops.jpg'), 'mate-backgrounds'),
    (os.path.join(BG, 'mate/nature/TwoWings.jpg'), 'mate-backgrounds'),
    (os.path.join(BG, 'mate/nature/Wood.jpg'), 'mate-backgrounds'),
    (_wp('ColdRipple'), 'plasma-workspace-wallpapers'),
    (_wp('ColorfulCups', '2560x1600.jpg'), 'plasma-workspace-wallpapers'),
    (_wp('DarkestHour'), 'plasma-workspace-wallpapers'),
    (_wp('EveningGlow'), 'plasma-workspace-wallpapers'),
    (_wp('FallenLeaf'), 'plasma-workspace-wallpapers'),
    (_wp('Grey'), 'plasma-workspace-wallpapers'),
    (_wp('OneStandsOut'), 'plasma-workspace-wallpapers'),
    (_wp('summer_1am'), 'plasma-workspace-wallpapers'),
    (_wp('Volna', '5120x2880.jpg'), 'plasma-workspace-wallpapers'),
    # drawn wallpapers: clean straight and curved edges, as in line art and buildings
    (os.path.join(BG, 'city.png'), 'ukui-wallpapers'),
    (os.path.join(BG, 'string.jpg'), 'ukui-wallpapers'),
    (os.path.join(BG, 'Fossa_by_Jasper_Roks.jpg'), 'lomiri-wallpapers-20.04'),
    (_wp('FlyingKonqui', '2560x1600.png'), 'plasma-workspace-wallpapers'),
]

def load_pyramid(paths, widths=(1.0, 0.7, 0.5), max_side=2400, min_side=200):
    """Each photo at a few sizes, RGB uint8 arrays. Downscaled copies are sharper per pixel than the
    full-size JPEGs (which are often soft), so the nets see crisp high-resolution targets too."""
    out = []
    for p, _pkg in paths:
        im = Image.open(p).convert('RGB')
        s0 = min(1.0, max_side / max(im.size))
        for f in widths:
            s = s0 * f
            w, h = round(im.width * s), round(im.height * s)
            if min(w, h) < min_side:
                continue
            out.append(np.asarray(im.resize((w, h), Image.LANCZOS) if (w, h) != im.size else im, dtype=np.uint8))
    return out
