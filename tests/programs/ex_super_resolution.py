# Corpus program, written for gradsh (no code copied). Modelled on pytorch/examples
# "super_resolution" (sub-pixel convolution, ESPCN), BSD-3-Clause:
# https://github.com/pytorch/examples/tree/main/super_resolution
# Like the original: a Net of Conv2d(1, 64, 5, 1, 2), Conv2d(64, 64, 3, 1, 1),
# Conv2d(64, 32, 3, 1, 1), Conv2d(32, upscale**2, 3, 1, 1), ReLU and nn.PixelShuffle, with
# init.orthogonal_ weights (gain calculate_gain('relu')); MSELoss, Adam(lr=0.01), a train loop
# printing '===> Epoch[{}]({}/{}): Loss: {:.4f}' and a test loop printing the average PSNR
# (10 * log10(1 / mse)).
# Differences: synthetic images (smooth sums of sinusoids from a seeded generator) instead of
# BSDS300; the low-resolution input made with F.interpolate(mode='bilinear') of the target,
# and a bilinear nn.Upsample baseline's PSNR printed next to the network's; smaller layers
# (16/16/8 channels) and 2 epochs of 4 batches; orthogonal_ replaced by kaiming_normal_.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.init as init


class Net(nn.Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(1, 16, (5, 5), (1, 1), (2, 2))
        self.conv2 = nn.Conv2d(16, 16, (3, 3), (1, 1), (1, 1))
        self.conv3 = nn.Conv2d(16, 8, (3, 3), (1, 1), (1, 1))
        self.conv4 = nn.Conv2d(8, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)
        self._initialize_weights()

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        x = self.relu(self.conv3(x))
        return self.pixel_shuffle(self.conv4(x))

    def _initialize_weights(self):
        init.kaiming_normal_(self.conv1.weight, nonlinearity="relu")
        init.kaiming_normal_(self.conv2.weight, nonlinearity="relu")
        init.kaiming_normal_(self.conv3.weight, nonlinearity="relu")
        init.kaiming_normal_(self.conv4.weight)


def images(generator, n, size):
    ys = torch.linspace(0, 1, size).view(1, 1, size, 1)
    xs = torch.linspace(0, 1, size).view(1, 1, 1, size)
    freq = torch.rand(n, 4, 1, 1, generator=generator) * 6
    img = (torch.sin(freq[:, :1] * xs * math.pi + freq[:, 1:2])
           * torch.cos(freq[:, 2:3] * ys * math.pi + freq[:, 3:4]))
    return (img + 1) / 2


def main():
    torch.manual_seed(123)
    upscale = 2
    model = Net(upscale_factor=upscale)
    print(model)
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    generator = torch.Generator().manual_seed(7)
    train = [images(generator, 4, 16) for _ in range(4)]
    test = [images(generator, 4, 16) for _ in range(2)]
    down = lambda t: F.interpolate(t, scale_factor=0.5, mode="bilinear")  # noqa: E731
    print("low-res shape:", tuple(down(train[0]).shape), down(train[0]).grad_fn)

    for epoch in range(1, 3):
        epoch_loss = 0.0
        for iteration, target in enumerate(train, 1):
            inp = down(target)
            optimizer.zero_grad()
            loss = criterion(model(inp), target)
            epoch_loss += loss.item()
            loss.backward()
            optimizer.step()
            print(f"===> Epoch[{epoch}]({iteration}/{len(train)}): Loss: {loss.item():.4f}")
        print(f"===> Epoch {epoch} Complete: Avg. Loss: {epoch_loss / len(train):.4f}")

        avg_psnr, base_psnr = 0.0, 0.0
        upsample = nn.Upsample(scale_factor=upscale, mode="bilinear", align_corners=False)
        with torch.no_grad():
            for target in test:
                inp = down(target)
                avg_psnr += 10 * math.log10(1 / criterion(model(inp), target).item())
                base_psnr += 10 * math.log10(1 / criterion(upsample(inp), target).item())
        print(f"===> Avg. PSNR: {avg_psnr / len(test):.4f} dB "
              f"(bilinear {base_psnr / len(test):.4f} dB)")

    x = down(test[0][:1]).requires_grad_()
    y = model(x)
    y.sum().backward()
    print(y.grad_fn.name(), tuple(y.shape), x.grad.abs().sum().item() > 0)
    near = F.interpolate(x.detach(), scale_factor=2, mode="nearest")
    print(near.grad_fn, (near[..., ::2, ::2] == x.detach()).all().item())
    print(nn.Upsample(scale_factor=upscale, mode="bilinear"), nn.PixelUnshuffle(upscale))


if __name__ == "__main__":
    main()
