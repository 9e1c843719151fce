"""The repair engine's U-Net (full, 1/2, 1/4, 1/8 resolution): the defect net and the restoration net."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def cbr(cin, cout, dil=1, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=dil, dilation=dil), nn.ReLU())


class UNet(nn.Module):
    """Input sides: multiples of 8."""
    def __init__(self, cin=3, cout=1, c=(16, 32, 48, 64)):
        super().__init__()
        c0, c1, c2, c3 = c
        self.e0 = nn.Sequential(cbr(cin, c0), cbr(c0, c0))
        self.e1 = nn.Sequential(cbr(c0, c1, stride=2), cbr(c1, c1))
        self.e2 = nn.Sequential(cbr(c1, c2, stride=2), cbr(c2, c2))
        self.e3 = nn.Sequential(cbr(c2, c3, stride=2), cbr(c3, c3), cbr(c3, c3, dil=2), cbr(c3, c3, dil=4))
        self.d2 = cbr(c3 + c2, c2)
        self.d1 = cbr(c2 + c1, c1)
        self.d0 = nn.Sequential(cbr(c1 + c0, c0), cbr(c0, c0))
        self.out = nn.Conv2d(c0, cout, 1)

    def forward(self, x):
        up = lambda t: F.interpolate(t, scale_factor=2, mode='bilinear', align_corners=False)
        f0 = self.e0(x)
        f1 = self.e1(f0)
        f2 = self.e2(f1)
        f3 = self.e3(f2)
        g2 = self.d2(torch.cat([up(f3), f2], 1))
        g1 = self.d1(torch.cat([up(g2), f1], 1))
        g0 = self.d0(torch.cat([up(g1), f0], 1))
        return self.out(g0)


