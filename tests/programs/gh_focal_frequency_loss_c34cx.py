# Corpus program, written for gradsh (no code copied). Modelled on EndlessSora's Focal
# Frequency Loss (ICCV 2021), focal_frequency_loss/focal_frequency_loss.py
# (https://github.com/EndlessSora/focal-frequency-loss): images cut into patches, the 2-D DFT
# of each with torch.fft.fft2(norm="ortho") (the repository's path for PyTorch >= 1.8), real
# and imaginary parts stacked, a spectrum weight matrix from the current distance (normalised
# by its maximum, NaNs zeroed, clamped, detached), and the weighted squared distance as a loss
# added to a reconstruction loss, as in the repository's VanillaAE example.
# Differences: a tiny convolutional autoencoder on seeded random 8 x 8 "images" instead of the
# datasets, a few SGD steps, printed losses and weights.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FocalFrequencyLoss(nn.Module):
    def __init__(self, loss_weight=1.0, alpha=1.0, patch_factor=1, ave_spectrum=False,
                 log_matrix=False, batch_matrix=False):
        super().__init__()
        self.loss_weight = loss_weight
        self.alpha = alpha
        self.patch_factor = patch_factor
        self.ave_spectrum = ave_spectrum
        self.log_matrix = log_matrix
        self.batch_matrix = batch_matrix

    def tensor2freq(self, x):
        pf = self.patch_factor
        _, _, h, w = x.shape
        ph, pw = h // pf, w // pf
        patches = [x[:, :, i * ph:(i + 1) * ph, j * pw:(j + 1) * pw]
                   for i in range(pf) for j in range(pf)]
        y = torch.stack(patches, 1)
        freq = torch.fft.fft2(y, norm="ortho")
        return torch.stack([freq.real, freq.imag], -1)

    def loss_formulation(self, recon_freq, real_freq, matrix=None):
        if matrix is not None:
            weight_matrix = matrix.detach()
        else:
            matrix_tmp = (recon_freq - real_freq) ** 2
            matrix_tmp = torch.sqrt(matrix_tmp[..., 0] + matrix_tmp[..., 1]) ** self.alpha
            if self.log_matrix:
                matrix_tmp = torch.log(matrix_tmp + 1.0)
            if self.batch_matrix:
                matrix_tmp = matrix_tmp / matrix_tmp.max()
            else:
                matrix_tmp = matrix_tmp / matrix_tmp.max(-1).values.max(-1).values[:, :, :, None, None]
            matrix_tmp[torch.isnan(matrix_tmp)] = 0.0
            matrix_tmp = torch.clamp(matrix_tmp, min=0.0, max=1.0)
            weight_matrix = matrix_tmp.clone().detach()
        assert weight_matrix.min().item() >= 0 and weight_matrix.max().item() <= 1
        tmp = (recon_freq - real_freq) ** 2
        freq_distance = tmp[..., 0] + tmp[..., 1]
        return torch.mean(weight_matrix * freq_distance)

    def forward(self, pred, target, matrix=None):
        pred_freq = self.tensor2freq(pred)
        target_freq = self.tensor2freq(target)
        if self.ave_spectrum:
            pred_freq = torch.mean(pred_freq, 0, keepdim=True)
            target_freq = torch.mean(target_freq, 0, keepdim=True)
        return self.loss_formulation(pred_freq, target_freq, matrix) * self.loss_weight


class TinyAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(1, 4, 3, stride=2, padding=1)
        self.dec = nn.ConvTranspose2d(4, 1, 4, stride=2, padding=1)

    def forward(self, x):
        return torch.sigmoid(self.dec(F.relu(self.enc(x))))


images = torch.rand(4, 1, 8, 8)
ffl = FocalFrequencyLoss(loss_weight=1.0, alpha=1.0)
print("zero for equal images:", ffl(images, images).item())
spec = ffl.tensor2freq(images)
print("spectrum:", spec.shape, spec.dtype)
print("DC terms:", spec[:, 0, 0, 0, 0])
print("patches:", FocalFrequencyLoss(patch_factor=2).tensor2freq(images).shape)
print("log/batch/ave variants:",
      FocalFrequencyLoss(log_matrix=True)(images.flip(-1), images).item() > 0,
      FocalFrequencyLoss(batch_matrix=True, ave_spectrum=True)(images * 0.5, images))

model = TinyAE()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(4):
    recon = model(images)
    mse = F.mse_loss(recon, images)
    freq_loss = ffl(recon, images)
    loss = mse + freq_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}: mse {mse.item():.5f} ffl {freq_loss.item():.5f}")
print("decoder weight grad:", model.dec.weight.grad[0, 0])
print("encoder bias:", model.enc.bias)
