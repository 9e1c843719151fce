"""
Training data for the repair engine's nets (dev only, not in CI): the photos, their pyramid, random
crops with augmentation, and our own synthetic scratch-and-dust generator. The generator is not
server/engines/scratches.ts (the measuring one): other width, tone and strength ranges, Gaussian as
well as flat profiles, wandering curvature, faded and broken stretches, elliptic specks.
"""
import math, os
import numpy as np
from PIL import Image

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
FIX = os.path.join(ROOT, 'tests', 'fixtures')
BG = '/usr/share/backgrounds'
WP = '/usr/share/wallpapers'
TUNED = [os.path.join(FIX, 'wallpapers', f) for f in sorted(os.listdir(os.path.join(FIX, 'wallpapers')))] + [
    os.path.join(FIX, f) for f in ['camera.png', 'Storm.jpg', 'LadyBird.jpg', 'chelsea.png']]
# Debian packages: lomiri-wallpapers-16.04, mate-backgrounds, plasma-workspace-wallpapers
DEBIAN = [os.path.join(BG, f) for f in [
    'Picture_0B_by_freespace.jpg', 'Picture_1A_by_freespace.jpg', 'analogpattern_by_Peter_Nerlich.jpg',
    'free_by_Peter_Nerlich.jpg', 'greentock_by_Peter_Nerlich.jpg', 'seeding_by_Clements_Engelhardt.jpg',
    'mate/nature/Aqua.jpg', 'mate/nature/FreshFlower.jpg', 'mate/nature/RainDrops.jpg', 'mate/nature/TwoWings.jpg',
    'mate/nature/Wood.jpg']] + [os.path.join(WP, f, 'contents', 'images', s) for f, s in [
    ('ColdRipple', '1280x1024.jpg'), ('DarkestHour', '1280x1024.jpg'), ('FallenLeaf', '1280x1024.jpg'),
    ('Grey', '1280x1024.jpg'), ('summer_1am', '1280x1024.jpg'), ('ColorfulCups', '2560x1600.jpg')]]
# never trained on: threshold selection (dev); the quality harness's validation photos are not here at all
DEV = [os.path.join(BG, f) for f in ['Kleiber_by_Lukas_Baubkus.jpg', 'friends_by_Aitzol_Berasategi.jpg', 'Wine_by_Jakkub_Mede.jpg',
                                     'mate/nature/Blinds.jpg']] + [os.path.join(WP, f, 'contents', 'images', '1280x1024.jpg') for f in ['EveningGlow', 'OneStandsOut']]
TRAIN = TUNED + DEBIAN
P = 128
rng = np.random.default_rng(1234)


def load_pyramid():
    """Each photo at several widths (texture at several scales), RGB uint8."""
    out = []
    for f in TRAIN:
        im = Image.open(f).convert('RGB')
        for width in (400, 560, 800, 1100, 1600):
            if width > im.width * 1.2:
                continue
            h = round(im.height * width / im.width)
            out.append(np.asarray(im.resize((width, h), Image.LANCZOS), dtype=np.uint8))
    return out


YY, XX = np.mgrid[0:P, 0:P].astype(np.float32)


def draw_defects(img):
    """Alpha-blends lines and specks onto a P×P float crop; returns the crop and the label."""
    alpha = np.zeros((P, P), np.float32)
    tone = np.zeros((P, P), np.float32)

    def paint(a, v):
        upd = a > alpha
        alpha[upd] = a[upd]
        tone[upd] = v

    for _ in range(rng.poisson(2.0)):
        bright = rng.random() < 0.55
        v = rng.uniform(170, 255) if bright else rng.uniform(0, 85)
        width = rng.uniform(0.6, 3.6)
        strength = rng.uniform(0.3, 1.0)
        gauss = rng.random() < 0.4
        ang = math.pi / 2 + rng.normal(0, 0.1) if rng.random() < 0.5 else rng.uniform(0, math.pi)
        if rng.random() < 0.6:  # crosses the crop
            x, y = P / 2 - math.cos(ang) * P * 0.8 + rng.uniform(-50, 50), P / 2 - math.sin(ang) * P * 0.8 + rng.uniform(-50, 50)
        else:
            x, y = rng.uniform(-20, P + 20), rng.uniform(-20, P + 20)
        length = rng.uniform(25, 280)
        turn = rng.normal(0, 0.003)
        wander = rng.uniform(0, 0.012)
        fade = rng.random() < 0.5
        gaps = rng.random() < 0.2
        gap_period = rng.uniform(8, 30)
        n = int(length / 0.7)
        dang = turn + rng.normal(0, wander, n) if wander > 0 else np.full(n, turn)
        angs = ang + np.cumsum(dang)
        xs = x + np.cumsum(np.cos(angs) * 0.7)
        ys = y + np.cumsum(np.sin(angs) * 0.7)
        t = np.arange(1, n + 1) * 0.7
        amp = np.ones(n, np.float32)
        if fade:
            amp = np.minimum(1.0, np.minimum(t / 20, (length - t) / 20)).astype(np.float32)
        if gaps:
            amp[np.sin(t / gap_period) > 0.7] = 0
        inside = (xs > -6) & (xs < P + 6) & (ys > -6) & (ys < P + 6)
        if not inside.any():
            continue
        pts = np.stack([xs[inside], ys[inside]], 1).astype(np.float32)
        amp = amp[inside]
        best = np.full((P, P), 1e9, np.float32)
        bamp = np.zeros((P, P), np.float32)
        for c in range(0, len(pts), 48):
            p = pts[c:c + 48]
            d = (XX[None] - p[:, 0, None, None]) ** 2 + (YY[None] - p[:, 1, None, None]) ** 2
            j = d.argmin(0)
            dm = np.take_along_axis(d, j[None], 0)[0]
            upd = dm < best
            best[upd] = dm[upd]
            bamp[upd] = amp[c:c + 48][j][upd]
        dist = np.sqrt(best)
        if gauss:
            a = np.exp(-0.5 * (dist / (width / 2.3)) ** 2)
        else:
            a = np.clip(width / 2 + 0.5 - dist, 0, 1)
        paint(strength * bamp * a, v)
    for _ in range(rng.poisson(5)):
        bright = rng.random() < 0.5
        v = rng.uniform(195, 255) if bright else rng.uniform(0, 65)
        r = rng.uniform(0.5, 3.6)
        e = rng.uniform(0.55, 1.0)
        th = rng.uniform(0, math.pi)
        cx, cy = rng.uniform(0, P), rng.uniform(0, P)
        dx, dy = XX - cx, YY - cy
        u = dx * math.cos(th) + dy * math.sin(th)
        w = (-dx * math.sin(th) + dy * math.cos(th)) / e
        d = np.sqrt(u * u + w * w)
        paint(rng.uniform(0.6, 1.0) * np.clip(r + 0.5 - d, 0, 1), v)
    out = (1 - alpha[..., None]) * img + alpha[..., None] * tone[..., None]
    label = (np.abs(out - img).max(-1) > 12).astype(np.float32)
    return out, label


def crop_of(photos):
    im = photos[rng.integers(len(photos))]
    H, W = im.shape[:2]
    y0, x0 = rng.integers(0, H - P + 1), rng.integers(0, W - P + 1)
    c = im[y0:y0 + P, x0:x0 + P].astype(np.float32)
    if rng.random() < 0.5:
        c = c[:, ::-1]
    if rng.random() < 0.5:
        c = c[::-1]
    if rng.random() < 0.5:
        c = np.transpose(c, (1, 0, 2))
    if rng.random() < 0.3:  # grey photo
        c = np.repeat((c @ np.array([0.299, 0.587, 0.114], np.float32))[..., None], 3, -1)
    c = c * rng.uniform(0.65, 1.2) + rng.uniform(-25, 25)  # exposure
    c = np.clip(c, 0, 255)
    if rng.random() < 0.4:  # sensor noise is part of the photo
        c = np.clip(c + rng.normal(0, rng.uniform(1, 6), c.shape), 0, 255)
    return np.round(c)


