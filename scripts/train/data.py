"""
Training photos, their pyramid, and the stream of batches a recipe trains on.

Photos come from Debian packages, read where the packages install them (nothing is copied into the
repository; `--photos-root DIR` reads DIR + the same absolute path, for a machine the photos were
copied to by copy_photos.py). Each entry: (path, package, licence from the package's copyright file).
A recipe names the sets it trains on ("photos": ["restore", ...]).

Kept out of every set: every photo a measuring script uses (`npm run quality`: the fixtures
GreenMeadow, YellowFlower, LadyBird, Storm, sunset, elephants, the skimage photos; the wallpapers/
photos aitzgorri, bridge, bythewater, dragonfly, dune, garden, kite, life, path, picosdeeuropa;
scripts/quality/colorize-photos.ts, whose GCompris photos keep gcompris-qt-data out altogether) and the
benchmark sets (Set5, Set14, Urban100, CBSD68, read by `npm run quality` from QUALITY_BENCH_DIR only).
The "restore" and "scratch" sets are as the kept nets were trained (several of their photos are also
colorize development or cartoon/retouch photos: other modules, measured on other tasks); new photos
join through sets of their own ("lxqt").
"""
import os
import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

from degrade import PAIRS

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
BG = '/usr/share/backgrounds'
LXQT = '/usr/share/lxqt/wallpapers'
L16, L20, MATE, PLASMA, UKUI = 'lomiri-wallpapers-16.04', 'lomiri-wallpapers-20.04', 'mate-backgrounds', 'plasma-workspace-wallpapers', 'ukui-wallpapers'
PLASMA_LIC = 'LGPL-3 per its metadata.json (Debian copyright: GPL-2+)'


def kde(name, size='1280x1024.jpg'):
    return f'/usr/share/wallpapers/{name}/contents/images/{size}'


# the 28 photos of the enlarge, denoise and deblur nets
RESTORE = [
    (f'{BG}/Kleiber_by_Lukas_Baubkus.jpg', L20, 'CC-BY-SA-3.0 (Lukas Baubkus)'),
    (f'{BG}/Picture_0B_by_freespace.jpg', L16, 'CC-BY-4.0 (Trevor "Freespace")'),
    (f'{BG}/Picture_1A_by_freespace.jpg', L16, 'CC-BY-4.0 (Trevor "Freespace")'),
    (f'{BG}/Wine_by_Jakkub_Mede.jpg', L16, 'CC-BY-4.0 (Jakub Mede)'),
    (f'{BG}/analogpattern_by_Peter_Nerlich.jpg', L16, 'CC-BY-SA-4.0 (Peter Nerlich)'),
    (f'{BG}/free_by_Peter_Nerlich.jpg', L16, 'CC-BY-SA-4.0 (Peter Nerlich)'),
    (f'{BG}/friends_by_Aitzol_Berasategi.jpg', L16, 'CC-BY-4.0 (Aitzol Berasategi)'),
    (f'{BG}/greentock_by_Peter_Nerlich.jpg', L16, 'CC-BY-SA-4.0 (Peter Nerlich)'),
    (f'{BG}/seeding_by_Clements_Engelhardt.jpg', L16, 'CC0-1.0 (Clemens Engelhardt)'),
    (f'{BG}/mate/nature/Aqua.jpg', MATE, 'GPL-2+ (Charles Barbin)'),
    (f'{BG}/mate/nature/Blinds.jpg', MATE, 'GPL-2+ (Lennart Poettering, Andrea Cimitan)'),
    (f'{BG}/mate/nature/FreshFlower.jpg', MATE, 'GPL-2+ (Jens Ansorg)'),
    (f'{BG}/mate/nature/RainDrops.jpg', MATE, 'GPL-2+ ("blackcombwhistler07")'),
    (f'{BG}/mate/nature/TwoWings.jpg', MATE, 'GPL-2+ (Charles Barbin, Hylke Bons)'),
    (f'{BG}/mate/nature/Wood.jpg', MATE, 'GPL-2+ (Jean-François Fortin Tam)'),
    (kde('ColdRipple'), PLASMA, PLASMA_LIC),
    (kde('ColorfulCups', '2560x1600.jpg'), PLASMA, PLASMA_LIC),
    (kde('DarkestHour'), PLASMA, PLASMA_LIC),
    (kde('EveningGlow'), PLASMA, PLASMA_LIC),
    (kde('FallenLeaf'), PLASMA, PLASMA_LIC),
    (kde('Grey'), PLASMA, PLASMA_LIC),
    (kde('OneStandsOut'), PLASMA, PLASMA_LIC),
    (kde('summer_1am'), PLASMA, PLASMA_LIC),
    (kde('Volna', '5120x2880.jpg'), PLASMA, PLASMA_LIC),
    # drawn: clean straight and curved edges, as in line art and buildings
    (f'{BG}/city.png', UKUI, 'CC-BY-SA-3.0 (Ubuntu Kylin community)'),
    (f'{BG}/string.jpg', UKUI, 'CC-BY-SA-3.0 (Ubuntu Kylin community)'),
    (f'{BG}/Fossa_by_Jasper_Roks.jpg', L20, 'CC-BY-SA-3.0 (Jasper Roks)'),
    (kde('FlyingKonqui', '2560x1600.png'), PLASMA, PLASMA_LIC),
]

# 11 more real photographs (lxqt-themes 1.2.0: wallpapers/License, CC-BY-SA-3.0, "stefonarch" and
# Kenneth Wimer; Debian copyright: LGPL-2.1+ for the package). None is in any measuring set.
LXQT_LIC = 'CC-BY-SA-3.0 (LXQt Project Team; wallpapers/License)'
LXQT_PHOTOS = [(f'{LXQT}/{f}', 'lxqt-themes', LXQT_LIC) for f in [
    'Butterfly-Kenneth-Wimer.jpg', 'Valendas.png', 'after-the-rain.jpg', 'appleflower.png', 'beam.png', 'butterfly.png',
    'cloud.png', 'drop.png', 'flowers.png', 'fog.jpg', 'this-is-not-windows.jpg']]

# the repair engine's defect net: the 14 photos its thresholds were tuned on (tests/fixtures, licences in
# tests/fixtures/LICENSES.md) and 17 Debian photos; its 6 threshold-choosing photos stay out (Kleiber,
# friends, Wine, Blinds, EveningGlow, OneStandsOut)
FIXTURES = 'tests/fixtures'
SCRATCH = [(f'{FIXTURES}/wallpapers/{f}.jpg', 'tests/fixtures', 'tests/fixtures/LICENSES.md') for f in [
    'aitzgorri', 'bridge', 'bythewater', 'dragonfly', 'dune', 'garden', 'kite', 'life', 'path', 'picosdeeuropa']] + [
    (f'{FIXTURES}/{f}', 'tests/fixtures', 'tests/fixtures/LICENSES.md') for f in ['camera.png', 'Storm.jpg', 'LadyBird.jpg', 'chelsea.png']] + [
    p for p in RESTORE if os.path.basename(p[0]) in {
        'Picture_0B_by_freespace.jpg', 'Picture_1A_by_freespace.jpg', 'analogpattern_by_Peter_Nerlich.jpg',
        'free_by_Peter_Nerlich.jpg', 'greentock_by_Peter_Nerlich.jpg', 'seeding_by_Clements_Engelhardt.jpg',
        'Aqua.jpg', 'FreshFlower.jpg', 'RainDrops.jpg', 'TwoWings.jpg', 'Wood.jpg'}] + [
    (kde(n, s), PLASMA, PLASMA_LIC) for n, s in [('ColdRipple', '1280x1024.jpg'), ('DarkestHour', '1280x1024.jpg'), ('FallenLeaf', '1280x1024.jpg'),
                                                 ('Grey', '1280x1024.jpg'), ('summer_1am', '1280x1024.jpg'), ('ColorfulCups', '2560x1600.jpg')]]

SETS = {'restore': RESTORE, 'lxqt': LXQT_PHOTOS, 'scratch': SCRATCH}


def photo_list(names):
    out = []
    for n in names:
        if n not in SETS:
            raise SystemExit(f'unknown photo set {n!r} (known: {", ".join(SETS)})')
        out += [p for p in SETS[n] if p not in out]
    return out


def resolve(path, photos_root=None):
    """Debian paths (absolute) under photos_root when given; repository paths from the repository root."""
    if not os.path.isabs(path):
        return os.path.join(ROOT, path)
    return os.path.join(photos_root, path.lstrip('/')) if photos_root else path


def load_pyramid(photos, spec, photos_root=None):
    """Each photo at a few sizes, RGB uint8 arrays: spec {"scales": [...], "max_side", "min_side"}
    (fractions of the photo once its long side is at most max_side) or {"widths": [...]} (pixels;
    widths over 1.2 x the photo's are skipped). Downscaled copies are sharper per pixel than the
    full-size JPEGs, so the nets see crisp targets too."""
    out = []
    for path, pkg, _ in photos:
        f = resolve(path, photos_root)
        if not os.path.exists(f):
            raise SystemExit(f'missing photo {f} (apt-get install {pkg}, or --photos-root)')
        im = Image.open(f).convert('RGB')
        if 'widths' in spec:
            sizes = [(w, round(im.height * w / im.width)) for w in spec['widths'] if w <= im.width * 1.2]
        else:
            s0 = min(1.0, spec.get('max_side', 1e9) / max(im.size))
            sizes = [(round(im.width * s0 * f), round(im.height * s0 * f)) for f in spec['scales']]
            sizes = [s for s in sizes if min(s) >= spec.get('min_side', 0)]
        out += [np.asarray(im.resize(s, Image.LANCZOS) if s != im.size else im, dtype=np.uint8) for s in sizes]
    return out


class PairStream(IterableDataset):
    """Endless batches of one recipe's pairs: each DataLoader worker makes whole batches with a numpy
    Generator of its own, seeded 2026 + 97 x worker + the recipe's seed (+ the step it resumes at, so
    a resumed run does not see the same pairs again)."""

    def __init__(self, pyramid, data, scale, start_step=0):
        self.pyr, self.data, self.scale, self.start = pyramid, data, scale, start_step

    def __iter__(self):
        info = get_worker_info()
        w = info.id if info else 0
        if info:
            torch.set_num_threads(1)  # the deblur kernels convolve in the worker
        rng = np.random.default_rng(2026 + 97 * w + self.data['seed'] + 7919 * self.start)
        make, p, n = PAIRS[self.data['pairs']], self.data['patch'], self.data['batch']
        while True:
            pairs = [make(self.pyr, rng, p, self.scale) for _ in range(n)]
            yield torch.from_numpy(np.stack([a for a, _ in pairs])), torch.from_numpy(np.stack([b for _, b in pairs]))


def batches(pyramid, data, scale, start_step, pin):
    """The recipe's batches from its own worker processes (forked: they share the pyramid)."""
    workers = min(data.get('workers', 3), os.cpu_count() or 1)  # a speed knob: each worker has its own seed
    more = dict(multiprocessing_context='fork', persistent_workers=True, prefetch_factor=4 if pin else 2) if workers else {}
    return iter(DataLoader(PairStream(pyramid, data, scale, start_step), batch_size=None, num_workers=workers, pin_memory=pin, **more))
