"""
Training pairs (input, target), both uint8: what a recipe's "pairs" names. Each maker takes the photo
pyramid, a numpy Generator (one per DataLoader worker), the patch side and the scale, and returns the
degraded input (H x W x 3) and the target (H x W x 3, or H x W labels for "scratch").

  sr_mixed    HR crop -> 20 % a mild Gaussian blur -> bicubic / area / bilinear downscale -> 15 % sensor
              noise -> 15 % JPEG: phone JPEGs come out clean as well as bicubic-made inputs (patch = LR side)
  sr_bicubic  HR crop -> PIL BICUBIC downscale, nothing else (the "clean" fine-tunes)
  denoise     Gaussian noise sigma 0-55 (70 %) or signal-dependent noise (30 %), 8 bits, 15 % then JPEG
  deblur      a random Gaussian / defocus / motion kernel, 8 bits, 40 % light noise, 30 % JPEG; one pair
              in six left sharp so a sharp photo passes through unchanged
  scratch     a re-exposed, sometimes grey and noisy crop with our own synthetic scratches and dust
              (85 % of crops; not server/engines/scratches.ts, the measuring one) and the defect mask
"""
import io
import math
import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image, ImageFilter


def crop(pyr, rng, p):
    """A random p x p crop of a random pyramid level, flipped and transposed at random."""
    im = pyr[rng.integers(len(pyr))]
    y, x = rng.integers(im.shape[0] - p + 1), rng.integers(im.shape[1] - p + 1)
    c = im[y:y + p, x:x + p]
    if rng.random() < 0.5:
        c = c[:, ::-1]
    if rng.random() < 0.5:
        c = c[::-1]
    if rng.random() < 0.5:
        c = c.transpose(1, 0, 2)
    return np.ascontiguousarray(c)


def jpeg(a, q):
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, 'JPEG', quality=int(q))
    return np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert('RGB'))


def noisy(a, rng, sigma, k=0.0):
    """Sensor noise: variance sigma^2 + k * signal, rounded to 8 bits."""
    f = a.astype(np.float32)
    std = np.sqrt(sigma ** 2 + k * f)
    return np.clip(np.round(f + rng.standard_normal(f.shape).astype(np.float32) * std), 0, 255).astype(np.uint8)


DOWNSCALE = [(Image.BICUBIC, 0.6), (Image.BOX, 0.2), (Image.BILINEAR, 0.2)]


def sr_mixed(pyr, rng, p, s):
    hr = crop(pyr, rng, p * s)
    src = Image.fromarray(hr)
    if rng.random() < 0.2:
        src = src.filter(ImageFilter.GaussianBlur(rng.uniform(0.2, 0.8)))
    kern = DOWNSCALE[rng.choice(len(DOWNSCALE), p=[w for _, w in DOWNSCALE])][0]
    lr = np.asarray(src.resize((p, p), kern))
    if rng.random() < 0.15:
        lr = noisy(lr, rng, rng.uniform(1, 6), rng.uniform(0, 0.3))
    if rng.random() < 0.15:
        lr = jpeg(lr, rng.uniform(55, 95))
    return lr, hr


def sr_bicubic(pyr, rng, p, s):
    hr = crop(pyr, rng, p * s)
    return np.asarray(Image.fromarray(hr).resize((p, p), Image.BICUBIC)), hr


def denoise(pyr, rng, p, _s):
    clean = crop(pyr, rng, p)
    if rng.random() < 0.3:
        n = noisy(clean, rng, rng.uniform(0, 30), rng.uniform(0, 1.5))
    else:
        n = noisy(clean, rng, rng.uniform(0, 55))
    if rng.random() < 0.15:
        n = jpeg(n, rng.uniform(60, 95))
    return n, clean


def blur_kernel(rng, size=25):
    """Sums to 1: Gaussian (sigma 0.5-2.6, a little anisotropic), defocus (an anti-aliased disc, radius
    0.8-4) or motion (an anti-aliased line, 2-12 px, any angle)."""
    c = (size - 1) / 2
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) - c
    kind = rng.choice(3, p=[0.5, 0.25, 0.25])
    if kind == 0:
        s1 = rng.uniform(0.5, 2.6)
        s2 = s1 * rng.uniform(0.75, 1.0)
        t = rng.uniform(0, math.pi)
        u, v = xx * math.cos(t) + yy * math.sin(t), -xx * math.sin(t) + yy * math.cos(t)
        k = np.exp(-0.5 * (u * u / (s1 * s1) + v * v / (s2 * s2)))
    elif kind == 1:
        r = rng.uniform(0.8, 4.0)
        k = np.clip(r + 0.5 - np.sqrt(xx * xx + yy * yy), 0, 1)
    else:
        n, t = rng.uniform(2, 12), rng.uniform(0, math.pi)
        u, v = xx * math.cos(t) + yy * math.sin(t), -xx * math.sin(t) + yy * math.cos(t)
        k = np.clip(1 - np.abs(v), 0, 1) * np.clip(n / 2 + 0.5 - np.abs(u), 0, 1)
    return (k / k.sum()).astype(np.float32)


def blurred(a, k):
    pad = k.shape[0] // 2
    t = torch.from_numpy(a.astype(np.float32)).permute(2, 0, 1)[:, None]
    t = F.conv2d(F.pad(t, (pad, pad, pad, pad), mode='reflect'), torch.from_numpy(k)[None, None])
    return np.clip(np.round(t[:, 0].permute(1, 2, 0).numpy()), 0, 255).astype(np.uint8)


def deblur(pyr, rng, p, _s):
    clean = crop(pyr, rng, p)
    b = clean if rng.random() < 1 / 6 else blurred(clean, blur_kernel(rng))
    if rng.random() < 0.4:
        b = noisy(b, rng, rng.uniform(0.5, 4), rng.uniform(0, 0.2))
    if rng.random() < 0.3:
        b = jpeg(b, rng.uniform(70, 95))
    return b, clean


def old_photo_crop(pyr, rng, p):
    """A crop as an old photo may look before its defects: sometimes grey, re-exposed, with sensor noise."""
    c = crop(pyr, rng, p).astype(np.float32)
    if rng.random() < 0.3:
        c = np.repeat((c @ np.array([0.299, 0.587, 0.114], np.float32))[..., None], 3, -1)
    c = c * rng.uniform(0.65, 1.2) + rng.uniform(-25, 25)
    c = np.clip(c, 0, 255)
    if rng.random() < 0.4:
        c = np.clip(c + rng.normal(0, rng.uniform(1, 6), c.shape), 0, 255)
    return np.round(c)


def draw_defects(img, rng):
    """Alpha-blends scratches (straight or wandering, flat or Gaussian profile, faded or broken) and
    elliptic specks onto a float crop; returns it and the label (1 where the defect changed the pixel)."""
    P = img.shape[0]
    yy, xx = np.mgrid[0:P, 0:P].astype(np.float32)
    alpha = np.zeros((P, P), np.float32)
    tone = np.zeros((P, P), np.float32)

    def paint(a, v):
        upd = a > alpha
        alpha[upd] = a[upd]
        tone[upd] = v

    for _ in range(rng.poisson(2.0)):
        v = rng.uniform(170, 255) if rng.random() < 0.55 else rng.uniform(0, 85)
        width, strength, gauss = rng.uniform(0.6, 3.6), rng.uniform(0.3, 1.0), rng.random() < 0.4
        ang = math.pi / 2 + rng.normal(0, 0.1) if rng.random() < 0.5 else rng.uniform(0, math.pi)
        if rng.random() < 0.6:  # crosses the crop
            x, y = P / 2 - math.cos(ang) * P * 0.8 + rng.uniform(-50, 50), P / 2 - math.sin(ang) * P * 0.8 + rng.uniform(-50, 50)
        else:
            x, y = rng.uniform(-20, P + 20), rng.uniform(-20, P + 20)
        length, turn, wander = rng.uniform(25, 280), rng.normal(0, 0.003), rng.uniform(0, 0.012)
        fade, gaps, gap_period = rng.random() < 0.5, rng.random() < 0.2, rng.uniform(8, 30)
        n = int(length / 0.7)
        angs = ang + np.cumsum(turn + rng.normal(0, wander, n) if wander > 0 else np.full(n, turn))
        xs, ys = x + np.cumsum(np.cos(angs) * 0.7), y + np.cumsum(np.sin(angs) * 0.7)
        t = np.arange(1, n + 1) * 0.7
        amp = np.minimum(1.0, np.minimum(t / 20, (length - t) / 20)).astype(np.float32) if fade else np.ones(n, np.float32)
        if gaps:
            amp[np.sin(t / gap_period) > 0.7] = 0
        inside = (xs > -6) & (xs < P + 6) & (ys > -6) & (ys < P + 6)
        if not inside.any():
            continue
        pts, amp = np.stack([xs[inside], ys[inside]], 1).astype(np.float32), amp[inside]
        best, bamp = np.full((P, P), 1e9, np.float32), np.zeros((P, P), np.float32)
        for c in range(0, len(pts), 48):
            q = pts[c:c + 48]
            d = (xx[None] - q[:, 0, None, None]) ** 2 + (yy[None] - q[:, 1, None, None]) ** 2
            j = d.argmin(0)
            dm = np.take_along_axis(d, j[None], 0)[0]
            upd = dm < best
            best[upd], bamp[upd] = dm[upd], amp[c:c + 48][j][upd]
        dist = np.sqrt(best)
        a = np.exp(-0.5 * (dist / (width / 2.3)) ** 2) if gauss else np.clip(width / 2 + 0.5 - dist, 0, 1)
        paint(strength * bamp * a, v)
    for _ in range(rng.poisson(5)):
        v = rng.uniform(195, 255) if rng.random() < 0.5 else rng.uniform(0, 65)
        r, e, th = rng.uniform(0.5, 3.6), rng.uniform(0.55, 1.0), rng.uniform(0, math.pi)
        dx, dy = xx - rng.uniform(0, P), yy - rng.uniform(0, P)
        u, w = dx * math.cos(th) + dy * math.sin(th), (-dx * math.sin(th) + dy * math.cos(th)) / e
        paint(rng.uniform(0.6, 1.0) * np.clip(r + 0.5 - np.sqrt(u * u + w * w), 0, 1), v)
    out = (1 - alpha[..., None]) * img + alpha[..., None] * tone[..., None]
    return out, (np.abs(out - img).max(-1) > 12)


def scratch(pyr, rng, p, _s):
    c = old_photo_crop(pyr, rng, p)
    d, label = draw_defects(c, rng) if rng.random() < 0.85 else (c, np.zeros(c.shape[:2], bool))
    return np.round(np.clip(d, 0, 255)).astype(np.uint8), label.astype(np.uint8)


PAIRS = {'sr_mixed': sr_mixed, 'sr_bicubic': sr_bicubic, 'denoise': denoise, 'deblur': deblur, 'scratch': scratch}
