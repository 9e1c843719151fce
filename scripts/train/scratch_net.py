"""
Trains the repair engine's scratch-and-dust net (server/engines/weights/scratch-repair.onnx).

A small fully convolutional net (8 layers, dilations up to 16: it sees ~65 px around a pixel) that
gives each pixel the probability of being part of a scratch or a dust speck. Trained on crops of
the *tuned* repair photos only (tests/fixtures/heldout/*, camera, Storm, LadyBird, chelsea); the
validation photos of `npm run quality` (GreenMeadow, YellowFlower, astronaut, coffee, elephants,
motorcycle, rocket, sunset) are never seen. The defects are drawn by this script's own generator,
which is deliberately *not* server/engines/scratches.ts (the measuring generator): other width,
tone and strength ranges, Gaussian as well as flat profiles, wandering curvature, faded and
broken stretches, elliptic specks; sensor noise, exposure changes and grey crops.

Run (dev only, not in CI): /usr/bin/python3 scripts/train/scratch_net.py [steps]  (the kept weights: 3000)
Needs Debian's python3-torch, python3-numpy, python3-pil. Deterministic seeds; CPU; ~20 min.
"""
import math, os, sys, time
import numpy as np
import torch
import torch.nn as nn
from PIL import Image

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
FIX = os.path.join(ROOT, 'tests', 'fixtures')
TRAIN = [os.path.join(FIX, 'heldout', f) for f in sorted(os.listdir(os.path.join(FIX, 'heldout')))] + [
    os.path.join(FIX, f) for f in ['camera.png', 'Storm.jpg', 'LadyBird.jpg', 'chelsea.png']]
OUT = os.path.join(ROOT, 'server', 'engines', 'weights', 'scratch-repair.onnx')
P = 112
rng = np.random.default_rng(1234)
torch.manual_seed(1234)
torch.set_num_threads(2)


def load_pyramid():
    """Each photo at several widths (texture at several scales), RGB uint8."""
    out = []
    for f in TRAIN:
        im = Image.open(f).convert('RGB')
        for width in (400, 560, 800, 1100):
            if width > im.width * 1.2:
                continue
            h = round(im.height * width / im.width)
            out.append(np.asarray(im.resize((width, h), Image.LANCZOS), dtype=np.float32))
    return out


def draw_defects(img):
    """Alpha-blends lines and specks onto a P×P float crop; returns the crop and the label."""
    alpha = np.zeros((P, P), np.float32)
    tone = np.zeros((P, P), np.float32)
    yy, xx = np.mgrid[0:P, 0:P].astype(np.float32)

    def paint(a, v):
        upd = a > alpha
        alpha[upd] = a[upd]
        tone[upd] = v[upd] if isinstance(v, np.ndarray) else v

    for _ in range(rng.poisson(2.5)):
        bright = rng.random() < 0.55
        v = rng.uniform(180, 255) if bright else rng.uniform(0, 80)
        width = rng.uniform(0.6, 3.4)
        strength = rng.uniform(0.35, 1.0)
        gauss = rng.random() < 0.4
        ang = math.pi / 2 + rng.normal(0, 0.12) if rng.random() < 0.5 else rng.uniform(0, math.pi)
        x, y = rng.uniform(-20, P + 20), rng.uniform(-20, P + 20)
        if rng.random() < 0.5:  # start outside, cross the crop
            x, y = P / 2 - math.cos(ang) * P * 0.8 + rng.uniform(-40, 40), P / 2 - math.sin(ang) * P * 0.8 + rng.uniform(-40, 40)
        length = rng.uniform(30, 260)
        pts, t, turn = [], 0.0, rng.normal(0, 0.004)
        amp = []
        fade = rng.random() < 0.5
        gaps = rng.random() < 0.25
        while t < length:
            ang += turn + rng.normal(0, 0.01)
            x += math.cos(ang) * 0.7
            y += math.sin(ang) * 0.7
            t += 0.7
            k = 1.0
            if fade:
                k = min(1.0, t / 20, (length - t) / 20)
            if gaps and math.sin(t / rng.uniform(8, 30)) > 0.7:
                k = 0.0
            if -5 < x < P + 5 and -5 < y < P + 5:
                pts.append((x, y))
                amp.append(k)
        if not pts:
            continue
        pts = np.array(pts, np.float32)
        amp = np.array(amp, np.float32)
        # distance of each pixel to the nearest polyline point (chunked)
        best = np.full((P, P), 1e9, np.float32)
        bamp = np.zeros((P, P), np.float32)
        for c in range(0, len(pts), 64):
            p = pts[c:c + 64]
            d = (xx[None] - p[:, 0, None, None]) ** 2 + (yy[None] - p[:, 1, None, None]) ** 2
            j = d.argmin(0)
            dm = d.min(0)
            upd = dm < best
            best[upd] = dm[upd]
            bamp[upd] = amp[c:c + 64][j][upd]
        dist = np.sqrt(best)
        if gauss:
            a = np.exp(-0.5 * (dist / (width / 2.3)) ** 2)
        else:
            a = np.clip(width / 2 + 0.5 - dist, 0, 1)
        paint(strength * bamp * a, v)
    for _ in range(rng.poisson(4)):
        bright = rng.random() < 0.5
        v = rng.uniform(200, 255) if bright else rng.uniform(0, 60)
        r = rng.uniform(0.5, 3.5)
        e = rng.uniform(0.6, 1.0)
        th = rng.uniform(0, math.pi)
        cx, cy = rng.uniform(0, P), rng.uniform(0, P)
        dx, dy = xx - cx, yy - cy
        u = dx * math.cos(th) + dy * math.sin(th)
        w = (-dx * math.sin(th) + dy * math.cos(th)) / e
        d = np.sqrt(u * u + w * w)
        paint(rng.uniform(0.7, 1.0) * np.clip(r + 0.5 - d, 0, 1), v)
    out = (1 - alpha[..., None]) * img + alpha[..., None] * tone[..., None]
    label = (np.abs(out - img).max(-1) > 12).astype(np.float32)
    return out, label


def batch(photos, n):
    xs, ys, cs = [], [], []
    for _ in range(n):
        im = photos[rng.integers(len(photos))]
        H, W = im.shape[:2]
        y0, x0 = rng.integers(0, H - P + 1), rng.integers(0, W - P + 1)
        c = im[y0:y0 + P, x0:x0 + P].copy()
        if rng.random() < 0.5:
            c = c[:, ::-1]
        if rng.random() < 0.5:
            c = np.transpose(c, (1, 0, 2))
        if rng.random() < 0.3:  # grey photo
            c = np.repeat((c @ np.array([0.299, 0.587, 0.114], np.float32))[..., None], 3, -1)
        c = c * rng.uniform(0.7, 1.15) + rng.uniform(-20, 20)  # exposure
        c = np.clip(c, 0, 255)
        if rng.random() < 0.4:  # sensor noise is part of the photo: the clean target keeps it
            c = np.clip(c + rng.normal(0, rng.uniform(1, 6), c.shape), 0, 255)
        c = np.round(c)
        d, lab = draw_defects(c) if rng.random() < 0.85 else (c, np.zeros((P, P), np.float32))
        d = np.round(np.clip(d, 0, 255))
        xs.append(np.transpose(d, (2, 0, 1)) / 255.0 - 0.5)
        cs.append(np.transpose(c, (2, 0, 1)) / 255.0 - 0.5)
        ys.append(lab[None])
    t = lambda a: torch.tensor(np.array(a), dtype=torch.float32)
    return t(xs), t(ys), t(cs)


class ScratchNet(nn.Module):
    """Per pixel, the log-odds that a scratch or dust speck covers it."""
    def __init__(self, c=24):
        super().__init__()
        layers, cin = [], 3
        for dil in (1, 1, 2, 4, 8, 16, 1, 1):
            layers += [nn.Conv2d(cin, c, 3, padding=dil, dilation=dil), nn.ReLU()]
            cin = c
        layers += [nn.Conv2d(c, 1, 1)]
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    photos = load_pyramid()
    model = ScratchNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    lossf = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(1.0))
    t0 = time.time()
    for s in range(steps):
        x, y, c = batch(photos, 8)
        loss = lossf(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if s % 100 == 0 or s == steps - 1:
            print(f'step {s} loss {loss.item():.4f} {time.time() - t0:.0f}s', flush=True)
        if s % 500 == 499:
            export(model)
    export(model)


def export(model):
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    model.eval()
    torch.onnx.export(model, torch.zeros(1, 3, 64, 64), OUT, input_names=['image'], output_names=['logit'],
                      dynamic_axes={'image': {2: 'h', 3: 'w'}, 'logit': {2: 'h', 3: 'w'}}, opset_version=13)
    model.train()
    print('exported', OUT, os.path.getsize(OUT), flush=True)


if __name__ == '__main__':
    main()
