"""
Trains the repair engine's defect net (server/engines/weights/scratch-repair.onnx): a small U-Net
(unet.py: full, ½, ¼ and ⅛ resolution, ~270 k weights; each output pixel sees ~85 px around it)
that gives each pixel the log-odds of being part of a scratch or a dust speck.

Trained on crops of the tuned repair photos and of photos from Debian packages (defects.py: TRAIN)
with our own defect generator (defects.py, deliberately not server/engines/scratches.ts). The
validation photos of `npm run quality` (GreenMeadow, YellowFlower, astronaut, coffee, elephants,
motorcycle, rocket, sunset) are never seen, nor are the DEV photos on which repair.ts's thresholds
were chosen.

Run (dev only, not in CI): /usr/bin/python3 scripts/train/scratch_net.py [steps] [out.onnx]
(the kept weights: 15000 steps, batches of 12 crops of 128 px; ~1.6 h on 2 CPU cores).
Needs Debian's python3-torch, python3-numpy, python3-pil and the photo packages named in defects.py.
"""
import os, sys, time
import numpy as np
import torch
import torch.nn as nn
import defects
from defects import P
from unet import UNet

OUT = os.path.join(defects.ROOT, 'server', 'engines', 'weights', 'scratch-repair.onnx')
torch.manual_seed(1234)
torch.set_num_threads(int(os.environ.get('THREADS', '2')))


def batch(photos, n):
    """n scratched crops (85 %; the rest clean) and their defect labels."""
    xs, ys = [], []
    for _ in range(n):
        c = defects.crop_of(photos)
        d, lab = defects.draw_defects(c) if defects.rng.random() < 0.85 else (c, np.zeros((P, P), np.float32))
        d = np.round(np.clip(d, 0, 255))
        xs.append(np.transpose(d, (2, 0, 1)) / 255.0 - 0.5)
        ys.append(lab[None])
    t = lambda a: torch.tensor(np.array(a), dtype=torch.float32)
    return t(xs), t(ys)


def export(model, out):
    model.eval()
    torch.onnx.export(model, torch.zeros(1, 3, 64, 64), out, input_names=['image'], output_names=['logit'],
                      dynamic_axes={'image': {2: 'h', 3: 'w'}, 'logit': {2: 'h', 3: 'w'}}, opset_version=13)
    model.train()
    print('exported', out, os.path.getsize(out), flush=True)


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 15000
    out = sys.argv[2] if len(sys.argv) > 2 else OUT
    bs = int(os.environ.get('BATCH', '12'))
    photos = defects.load_pyramid()
    print('photos', len(defects.TRAIN), 'pyramid', len(photos), flush=True)
    model = UNet(cin=3, cout=1)
    print('weights', sum(p.numel() for p in model.parameters()), flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.05)
    lossf = nn.BCEWithLogitsLoss()
    t0, run = time.time(), 0.0
    for s in range(steps):
        x, y = batch(photos, bs)
        loss = lossf(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        run = 0.98 * run + 0.02 * loss.item() if s else loss.item()
        if s % 100 == 0 or s == steps - 1:
            print(f'step {s} loss {run:.4f} {time.time() - t0:.0f}s', flush=True)
        if s % 1000 == 999:
            export(model, out)
    export(model, out)


if __name__ == '__main__':
    main()
