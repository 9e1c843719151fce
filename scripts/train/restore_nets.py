"""
Our enlarge and denoise nets (dev only, never in CI): architecture, degradations, training, ONNX export.

  /usr/bin/python3 scripts/train/restore_nets.py x2 MINUTES      -> server/engines/weights/pixmill-sr-x2-v1.onnx
  /usr/bin/python3 scripts/train/restore_nets.py x4 MINUTES      -> server/engines/weights/pixmill-sr-x4-v1.onnx
  /usr/bin/python3 scripts/train/restore_nets.py denoise MINUTES -> server/engines/weights/pixmill-denoise-v1.onnx
  /usr/bin/python3 scripts/train/restore_nets.py deblur MINUTES  -> server/engines/weights/pixmill-deblur-v1.onnx

THREADS (default 1) sets torch's CPU threads; the learning rate follows a cosine over the time budget
(MINUTES), from LR0 (default 5e-4; lower it when resuming), or over STEPS=N steps when that is set (the same schedule on any machine: use it on a GPU
machine, with the step count the weights README names). RESUME=file.onnx starts from weights this
script exported (the committed file), so training can go on across sessions. Seeds are fixed. Training photos: photos.py
(Debian packages only). `restore_nets.py export KIND CHECKPOINT.pt OUT.onnx` exports a checkpoint.

Enlarge net: EDSR-style residual blocks in low-resolution space, a pixel-shuffle tail, added to a
fixed bilinear upsample of the input (the net only learns the missing detail). Degradations: HR crop
-> (sometimes a mild Gaussian blur) -> bicubic / area / bilinear downscale -> 8-bit -> (sometimes)
sensor noise and JPEG, so phone JPEGs come out clean as well as bicubic-made inputs.

Denoise net: a small residual U-Net (pixel-unshuffle to 1/2, then 1/4 and 1/8), blind for
Gaussian sigma 0..55 and signal-dependent noise, sometimes followed by JPEG; it predicts the noise.

Deblur net: the denoise net's U-Net (it can start from the denoise weights: RESUME=pixmill-denoise-v1.onnx),
trained on Gaussian, defocus (disc) and motion (line) blur, then 8-bit, light sensor noise and JPEG at
random; one pair in six is left sharp (input = target), so a sharp photo passes through unchanged.
"""
import io, math, os, sys, time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from PIL import Image, ImageFilter

sys.path.insert(0, os.path.dirname(__file__))
from photos import PHOTOS, load_pyramid  # noqa: E402

torch.set_num_threads(int(os.environ.get('THREADS', '1')))
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
WEIGHTS = os.path.join(ROOT, 'server', 'engines', 'weights')


def conv(i, o, k=3, s=1):
    return nn.Conv2d(i, o, k, s, (k - 1) // 2)


class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.a, self.b = conv(c, c), conv(c, c)

    def forward(self, x):
        return x + self.b(F.relu(self.a(x)))


class BilinearUp(nn.Module):
    """Fixed bilinear upsample by s (half-pixel centres, edge replicate) as one grouped 3x3 conv +
    pixel shuffle: exports to plain ONNX ops and matches what the net adds its detail to."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        w = torch.zeros(3 * s * s, 1, 3, 3)
        for c in range(3):
            for a in range(s):
                for b in range(s):
                    dy, dx = (a + 0.5) / s - 0.5, (b + 0.5) / s - 0.5
                    for i in range(3):
                        for j in range(3):
                            w[c * s * s + a * s + b, 0, i, j] = max(0, 1 - abs(i - 1 - dy)) * max(0, 1 - abs(j - 1 - dx))
        self.register_buffer('w', w)

    def forward(self, x):
        return F.pixel_shuffle(F.conv2d(F.pad(x, (1, 1, 1, 1), mode='replicate'), self.w, groups=3), self.s)


class SRNet(nn.Module):
    def __init__(self, s, c=48, n=8):
        super().__init__()
        self.s = s
        self.head = conv(3, c)
        self.body = nn.Sequential(*[ResBlock(c) for _ in range(n)])
        self.fuse = conv(c, c)
        self.tail = conv(c, 3 * s * s)
        self.up = BilinearUp(s)

    def forward(self, x):  # x: RGB in -0.5..0.5
        f = self.head(x)
        f = f + self.fuse(self.body(f))
        return self.up(x) + F.pixel_shuffle(self.tail(f), self.s)


class DenoiseNet(nn.Module):
    """Residual U-Net: in RGB -0.5..0.5 (sides multiples of 8), out the clean RGB."""

    def __init__(self, c=(48, 64, 96)):
        super().__init__()
        c1, c2, c3 = c
        self.inp = conv(12, c1)
        self.e1 = nn.Sequential(ResBlock(c1), ResBlock(c1))
        self.d1 = conv(c1, c2, 2, 2)
        self.e2 = nn.Sequential(ResBlock(c2), ResBlock(c2))
        self.d2 = conv(c2, c3, 2, 2)
        self.mid = nn.Sequential(ResBlock(c3), ResBlock(c3), ResBlock(c3))
        self.u2 = nn.ConvTranspose2d(c3, c2, 2, 2)
        self.g2 = nn.Sequential(ResBlock(c2), ResBlock(c2))
        self.u1 = nn.ConvTranspose2d(c2, c1, 2, 2)
        self.g1 = nn.Sequential(ResBlock(c1), ResBlock(c1))
        self.out = conv(c1, 12)

    def forward(self, x):
        a = self.e1(self.inp(F.pixel_unshuffle(x, 2)))
        b = self.e2(self.d1(a))
        m = self.mid(self.d2(b))
        b = self.g2(self.u2(m) + b)
        a = self.g1(self.u1(b) + a)
        return x - F.pixel_shuffle(self.out(a), 2)


rng = np.random.default_rng(2026)
KERNELS = [(Image.BICUBIC, 0.6), (Image.BOX, 0.2), (Image.BILINEAR, 0.2)]


def pick(pyr, p):
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


def noisy(a, sigma, k=0.0):
    f = a.astype(np.float32)
    std = np.sqrt(sigma ** 2 + k * f)
    return np.clip(np.round(f + rng.standard_normal(f.shape).astype(np.float32) * std), 0, 255).astype(np.uint8)


def sr_pair(pyr, s, lp):
    hr = pick(pyr, lp * s)
    src = Image.fromarray(hr)
    if rng.random() < 0.2:
        src = src.filter(ImageFilter.GaussianBlur(rng.uniform(0.2, 0.8)))
    kern = KERNELS[rng.choice(len(KERNELS), p=[k[1] for k in KERNELS])][0]
    lr = np.asarray(src.resize((lp, lp), kern))
    if rng.random() < 0.15:
        lr = noisy(lr, rng.uniform(1, 6), rng.uniform(0, 0.3))
    if rng.random() < 0.15:
        lr = jpeg(lr, rng.uniform(55, 95))
    return lr, hr


def dn_pair(pyr, p):
    clean = pick(pyr, p)
    if rng.random() < 0.3:
        n = noisy(clean, rng.uniform(0, 30), rng.uniform(0, 1.5))
    else:
        n = noisy(clean, rng.uniform(0, 55))
    if rng.random() < 0.15:
        n = jpeg(n, rng.uniform(60, 95))
    return n, clean


def blur_kernel(size=25):
    """A random blur kernel (sums to 1): Gaussian (sigma 0.5-2.6, slightly anisotropic at random),
    defocus (an anti-aliased disc, radius 0.8-4) or motion (an anti-aliased line, 2-12 px, any angle)."""
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


def db_pair(pyr, p):
    clean = pick(pyr, p)
    b = clean if rng.random() < 1 / 6 else blurred(clean, blur_kernel())
    if rng.random() < 0.4:
        b = noisy(b, rng.uniform(0.5, 4), rng.uniform(0, 0.2))
    if rng.random() < 0.3:
        b = jpeg(b, rng.uniform(70, 95))
    return b, clean


def tensor(batch):
    return torch.from_numpy(np.stack(batch).astype(np.float32) / 255 - 0.5).permute(0, 3, 1, 2).contiguous()


class Bytes(nn.Module):
    """The exported graph works on planar RGB 0..255 in and out, as the engines' tiling hands it over."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return (self.net(x * (1 / 255) - 0.5) + 0.5) * 255


def export(net, path, sample):
    dev = next(net.parameters()).device
    net = net.cpu().to(memory_format=torch.contiguous_format)
    net.eval()
    torch.onnx.export(Bytes(net), sample, path, opset_version=13, input_names=['input'], output_names=['output'],
                      dynamic_axes={'input': {2: 'h', 3: 'w'}, 'output': {2: 'H', 3: 'W'}})
    net.to(dev, memory_format=torch.channels_last).train()


def build(kind):
    return SRNet(int(kind[1])) if kind in ('x2', 'x4') else DenoiseNet()  # deblur: the denoise U-Net


def load_onnx_weights(net, path):
    """Starts from weights this script exported earlier (RESUME=file.onnx): training carries on across
    sessions from the committed file instead of from scratch."""
    import onnx
    from onnx import numpy_helper
    init = {t.name: numpy_helper.to_array(t) for t in onnx.load(path).graph.initializer}
    state = net.state_dict()
    for k in state:
        key = 'net.' + k
        if key in init and init[key].shape == tuple(state[k].shape):
            state[k] = torch.from_numpy(init[key].copy())
        elif not k.endswith('up.w'):
            raise SystemExit(f'{path} has no weight {key} of shape {tuple(state[k].shape)}')
    net.load_state_dict(state)


def export_checkpoint(kind, ckpt, out):
    net = build(kind)
    net.load_state_dict(torch.load(ckpt, map_location='cpu'))
    export(net, out, torch.zeros(1, 3, 64, 64))


def main():
    if sys.argv[1] == 'export':  # restore_nets.py export KIND CHECKPOINT.pt OUT.onnx
        return export_checkpoint(*sys.argv[2:5])
    kind = sys.argv[1]
    minutes = float(sys.argv[2]) if len(sys.argv) > 2 else 60
    out = sys.argv[3] if len(sys.argv) > 3 else os.path.join(WEIGHTS, {'x2': 'pixmill-sr-x2-v1.onnx', 'x4': 'pixmill-sr-x4-v1.onnx', 'denoise': 'pixmill-denoise-v1.onnx', 'deblur': 'pixmill-deblur-v1.onnx'}[kind])
    torch.manual_seed(7)
    pyr = load_pyramid(PHOTOS)
    print(f'{len(pyr)} images, {sum(a.shape[0] * a.shape[1] for a in pyr) / 1e6:.0f} MP', flush=True)
    if kind in ('x2', 'x4'):
        s = int(kind[1])
        net, lp, bs = build(kind), (48 if s == 2 else 32), 16
        make = lambda: [sr_pair(pyr, s, lp) for _ in range(bs)]
        sample = torch.zeros(1, 3, 64, 64)
    else:
        net, p, bs = build(kind), 80, 10
        pair = db_pair if kind == 'deblur' else dn_pair
        make = lambda: [pair(pyr, p) for _ in range(bs)]
        sample = torch.zeros(1, 3, 64, 64)
    if os.environ.get('RESUME'):
        load_onnx_weights(net, os.environ['RESUME'])
        print(f'resumed from {os.environ["RESUME"]}', flush=True)
    print(f'{kind}: {sum(t.numel() for t in net.parameters())} weights', flush=True)
    dev = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    net = net.to(dev, memory_format=torch.channels_last)  # ~2-4x faster convolutions on the CPU
    lr0 = float(os.environ.get('LR0', '5e-4'))
    opt = torch.optim.Adam(net.parameters(), lr=lr0)
    budget, t0, step, ema, last_save = minutes * 60, time.time(), 0, None, time.time()
    steps = int(os.environ.get('STEPS', '0'))  # a step count instead of the time budget: the same schedule on any machine
    while True:
        frac = step / steps if steps else (time.time() - t0) / budget
        if frac >= 1:
            break
        for g in opt.param_groups:
            g['lr'] = 1e-6 + (lr0 - 1e-6) * 0.5 * (1 + math.cos(math.pi * frac)) * min(1, (step + 1) / 200)
        pairs = make()
        x = tensor([a for a, _ in pairs]).to(dev).contiguous(memory_format=torch.channels_last)
        y = tensor([b for _, b in pairs]).to(dev)
        loss = F.l1_loss(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        ema = loss.item() if ema is None else 0.98 * ema + 0.02 * loss.item()
        if step % 100 == 0:
            print(f'step {step} {time.time() - t0:.0f}s loss {ema * 255:.3f}', flush=True)
        if time.time() - last_save > 600:
            export(net, out, sample)
            torch.save(net.state_dict(), os.path.join(os.environ.get('CKPT_DIR', '/tmp'), os.path.basename(out) + '.pt'))
            last_save = time.time()
    export(net, out, sample)
    torch.save(net.state_dict(), os.path.join(os.environ.get('CKPT_DIR', '/tmp'), os.path.basename(out) + '.pt'))
    print(f'done: {step} steps in {(time.time() - t0) / 60:.1f} min -> {out}', flush=True)


if __name__ == '__main__':
    main()
