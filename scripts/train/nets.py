"""
The nets we train, built from a recipe's "net" entry, and their ONNX files (export with metadata, and
loading the weights back). Registry: NETS maps the recipe's "arch" to a builder and to the file's I/O.

  SRNet       enlarge: EDSR-style residual blocks in low-resolution space, a pixel-shuffle tail added to a
              fixed bilinear upsample of the input (the net only learns the missing detail).
  DenoiseNet  denoise and deblur: a residual U-Net (pixel-unshuffle to 1/2, then 1/4 and 1/8) that
              predicts what to take away.
  UNet        the repair engine's defect net: plain conv U-Net at 1, 1/2, 1/4, 1/8 giving log-odds.
  PatchDiscriminator  only for the adversarial term of a perceptual recipe; never exported.

Files: SRNet and DenoiseNet take and give planar RGB 0...255 (the engines' tiling contract: names
input/output, dynamic sides, opset 13); UNet takes RGB in -0.5...0.5 and gives one logit plane
(image/logit). Inside, every net works on RGB in -0.5...0.5.
"""
import inspect
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv(i, o, k=3, s=1):
    return nn.Conv2d(i, o, k, s, (k - 1) // 2)


class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.a, self.b = conv(c, c), conv(c, c)

    def forward(self, x):
        return x + self.b(F.relu(self.a(x)))


class BilinearUp(nn.Module):
    """Fixed bilinear upsample by s (half-pixel centres, edge replicate) as one grouped 3x3 conv and a
    pixel shuffle: plain ONNX ops, and exactly what the net adds its detail to."""

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
    def __init__(self, scale, channels=48, blocks=8):
        super().__init__()
        self.s = scale
        self.head = conv(3, channels)
        self.body = nn.Sequential(*[ResBlock(channels) for _ in range(blocks)])
        self.fuse = conv(channels, channels)
        self.tail = conv(channels, 3 * scale * scale)
        self.up = BilinearUp(scale)

    def forward(self, x):
        f = self.head(x)
        f = f + self.fuse(self.body(f))
        return self.up(x) + F.pixel_shuffle(self.tail(f), self.s)


class DenoiseNet(nn.Module):
    """Sides multiples of 8."""

    def __init__(self, channels=(48, 64, 96)):
        super().__init__()
        c1, c2, c3 = channels
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


def cbr(cin, cout, dil=1, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=dil, dilation=dil), nn.ReLU())


class UNet(nn.Module):
    """Sides multiples of 8; each output pixel sees ~85 px around it."""

    def __init__(self, cin=3, cout=1, channels=(16, 32, 48, 64)):
        super().__init__()
        c0, c1, c2, c3 = channels
        self.e0 = nn.Sequential(cbr(cin, c0), cbr(c0, c0))
        self.e1 = nn.Sequential(cbr(c0, c1, stride=2), cbr(c1, c1))
        self.e2 = nn.Sequential(cbr(c1, c2, stride=2), cbr(c2, c2))
        self.e3 = nn.Sequential(cbr(c2, c3, stride=2), cbr(c3, c3), cbr(c3, c3, dil=2), cbr(c3, c3, dil=4))
        self.d2 = cbr(c3 + c2, c2)
        self.d1 = cbr(c2 + c1, c1)
        self.d0 = nn.Sequential(cbr(c1 + c0, c0), cbr(c0, c0))
        self.out = nn.Conv2d(c0, cout, 1)

    def forward(self, x):
        def up(t):
            return F.interpolate(t, scale_factor=2, mode='bilinear', align_corners=False)
        f0 = self.e0(x)
        f1 = self.e1(f0)
        f2 = self.e2(f1)
        f3 = self.e3(f2)
        g2 = self.d2(torch.cat([up(f3), f2], 1))
        g1 = self.d1(torch.cat([up(g2), f1], 1))
        return self.out(self.d0(torch.cat([up(g1), f0], 1)))


class PatchDiscriminator(nn.Module):
    """Real/fake logits per patch for the adversarial term (spectral norm keeps it tame)."""

    def __init__(self, channels=64):
        super().__init__()
        sn = nn.utils.spectral_norm
        c = channels
        layers, cin = [], 3
        for cout, stride in [(c, 1), (c, 2), (2 * c, 1), (2 * c, 2), (4 * c, 1), (4 * c, 2)]:
            layers += [sn(nn.Conv2d(cin, cout, 3, stride, 1)), nn.LeakyReLU(0.2)]
            cin = cout
        self.body = nn.Sequential(*layers, nn.Conv2d(cin, 1, 3, 1, 1))

    def forward(self, x):
        return self.body(x)


class Bytes(nn.Module):
    """Planar RGB 0...255 in and out around a net that works on -0.5...0.5."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return (self.net(x * (1 / 255) - 0.5) + 0.5) * 255


# arch -> (builder from the recipe's "net" entry, wrap for export, input name, output name)
NETS = {
    'SRNet': (lambda n: SRNet(n['scale'], n['channels'], n['blocks']), Bytes, 'input', 'output'),
    'DenoiseNet': (lambda n: DenoiseNet(tuple(n['channels'])), Bytes, 'input', 'output'),
    'UNet': (lambda n: UNet(3, 1, tuple(n['channels'])), lambda net: net, 'image', 'logit'),
}


def build(spec):
    if spec['arch'] not in NETS:
        raise SystemExit(f"unknown net {spec['arch']!r} (known: {', '.join(NETS)})")
    return NETS[spec['arch']][0](spec)


def export_onnx(net, spec, path, metadata):
    """Writes the net as the engines load it, with metadata (string key -> string value)."""
    import onnx
    _, wrap, inp, out = NETS[spec['arch']]
    net = net.cpu().float().to(memory_format=torch.contiguous_format).eval()
    extra = {'dynamo': False} if 'dynamo' in inspect.signature(torch.onnx.export).parameters else {}
    warnings.filterwarnings('ignore', message='Constant folding')  # torch 1.13 on the pixel-shuffle's slices
    torch.onnx.export(wrap(net), torch.zeros(1, 3, 64, 64), path, opset_version=13, input_names=[inp], output_names=[out],
                      dynamic_axes={inp: {2: 'h', 3: 'w'}, out: {2: 'H', 3: 'W'}}, **extra)
    model = onnx.load(path)
    for k, v in metadata.items():
        model.metadata_props.add(key=k, value=str(v))
    onnx.save(model, path)


def onnx_weights(spec, path):
    """The state-dict-named weights of an exported file (the export wrapper's prefix removed)."""
    import onnx
    from onnx import numpy_helper
    prefix = 'net.' if NETS[spec['arch']][1] is Bytes else ''
    return {t.name[len(prefix):]: numpy_helper.to_array(t) for t in onnx.load(path).graph.initializer
            if t.name.startswith(prefix) and '::' not in t.name}  # 'onnx::...': the exporter's own constants


def load_onnx_weights(net, spec, path):
    """Loads an exported file into a net built from spec; every weight must be there with its shape."""
    init = onnx_weights(spec, path)
    state = net.state_dict()
    for k, v in state.items():
        if k not in init or init[k].shape != tuple(v.shape):
            got = init[k].shape if k in init else 'nothing'
            raise SystemExit(f'{path}: {k} should be {tuple(v.shape)}, the file has {got}')
        state[k] = torch.from_numpy(init[k].copy())
    extra = sorted(set(init) - set(state))
    if extra:
        raise SystemExit(f'{path}: weights the net does not have: {", ".join(extra[:5])}')
    net.load_state_dict(state)
