# Corpus program, written for gradsh (no code copied). Modelled on Phillip Lippe's UvA Deep
# Learning tutorial 12 "Autoregressive Image Modeling" (PixelCNN, MIT):
# https://github.com/phlippe/uvadlc_notebooks/blob/master/docs/tutorial_notebooks/tutorial12/Autoregressive_Image_Modeling.ipynb
# Like the original: MaskedConvolution (a registered mask buffer multiplied into the weight in
# F.conv2d, dilation), VerticalStackConvolution / HorizontalStackConvolution masks (the
# centre included or not), GatedMaskedConv with the vertical-to-horizontal 1x1 link and
# chunked tanh/sigmoid gates; the receptive-field demonstration (backward of one centre
# pixel of a stack of layers and the non-zero pattern of the input gradient printed); PixelCNN
# with the input scaled to [-1, 1], logits reshaped to (B, 256, C, H, W), F.cross_entropy with
# reduction='none' turned into bits per dimension; sampling pixel by pixel with
# torch.multinomial and a partially given image.
# Differences: no Lightning; 8 quantisation levels instead of 256, 6x6 images with random
# content, hidden width 8, 6 training steps; seeded.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(42)
LEVELS = 8


class MaskedConvolution(nn.Module):
    def __init__(self, c_in, c_out, mask, **kwargs):
        super().__init__()
        kernel_size = (mask.shape[0], mask.shape[1])
        dilation = 1 if "dilation" not in kwargs else kwargs["dilation"]
        padding = tuple([dilation * (kernel_size[i] - 1) // 2 for i in range(2)])
        self.conv = nn.Conv2d(c_in, c_out, kernel_size, padding=padding, **kwargs)
        self.register_buffer('mask', mask[None, None])

    def forward(self, x):
        self.conv.weight.data *= self.mask
        return self.conv(x)


class VerticalStackConvolution(MaskedConvolution):
    def __init__(self, c_in, c_out, kernel_size=3, mask_center=False, **kwargs):
        mask = torch.ones(kernel_size, kernel_size)
        mask[kernel_size // 2 + 1:, :] = 0
        if mask_center:
            mask[kernel_size // 2, :] = 0
        super().__init__(c_in, c_out, mask, **kwargs)


class HorizontalStackConvolution(MaskedConvolution):
    def __init__(self, c_in, c_out, kernel_size=3, mask_center=False, **kwargs):
        mask = torch.ones(1, kernel_size)
        mask[0, kernel_size // 2 + 1:] = 0
        if mask_center:
            mask[0, kernel_size // 2] = 0
        super().__init__(c_in, c_out, mask, **kwargs)


class GatedMaskedConv(nn.Module):
    def __init__(self, c_in, **kwargs):
        super().__init__()
        self.conv_vert = VerticalStackConvolution(c_in, c_out=2 * c_in, **kwargs)
        self.conv_horiz = HorizontalStackConvolution(c_in, c_out=2 * c_in, **kwargs)
        self.conv_vert_to_horiz = nn.Conv2d(2 * c_in, 2 * c_in, kernel_size=1, padding=0)
        self.conv_horiz_1x1 = nn.Conv2d(c_in, c_in, kernel_size=1, padding=0)

    def forward(self, v_stack, h_stack):
        v_stack_feat = self.conv_vert(v_stack)
        v_val, v_gate = v_stack_feat.chunk(2, dim=1)
        v_stack_out = torch.tanh(v_val) * torch.sigmoid(v_gate)
        h_stack_feat = self.conv_horiz(h_stack)
        h_stack_feat = h_stack_feat + self.conv_vert_to_horiz(v_stack_feat)
        h_val, h_gate = h_stack_feat.chunk(2, dim=1)
        h_stack_feat = torch.tanh(h_val) * torch.sigmoid(h_gate)
        h_stack_out = self.conv_horiz_1x1(h_stack_feat)
        h_stack_out = h_stack_out + h_stack
        return v_stack_out, h_stack_out


# receptive field of a stack of masked convolutions
inp_img = torch.zeros(1, 1, 7, 7)
inp_img.requires_grad_()


def show_center_recep_field(img, out):
    loss = out[0, :, img.shape[2] // 2, img.shape[3] // 2].sum()
    loss.backward(retain_graph=True)
    img_grads = img.grad.abs()
    img.grad.fill_(0)
    img = (img_grads.squeeze() > 0).int()
    print(img)


horiz_conv = HorizontalStackConvolution(c_in=1, c_out=1, kernel_size=3, mask_center=True)
horiz_conv.conv.weight.data.fill_(1)
horiz_conv.conv.bias.data.fill_(0)
horiz_img = horiz_conv(inp_img)
show_center_recep_field(inp_img, horiz_img)
vert_conv = VerticalStackConvolution(c_in=1, c_out=1, kernel_size=3, mask_center=True)
vert_conv.conv.weight.data.fill_(1)
vert_conv.conv.bias.data.fill_(0)
vert_img = vert_conv(inp_img)
show_center_recep_field(inp_img, vert_img)
horiz_noc_conv = HorizontalStackConvolution(c_in=1, c_out=1, kernel_size=3, mask_center=False)
vert_noc_conv = VerticalStackConvolution(c_in=1, c_out=1, kernel_size=3, mask_center=False)
for conv in (horiz_noc_conv, vert_noc_conv):
    conv.conv.weight.data.fill_(1)
    conv.conv.bias.data.fill_(0)
for _ in range(2):
    vert_img = vert_noc_conv(vert_img)
    horiz_img = horiz_noc_conv(horiz_img) + vert_img
show_center_recep_field(inp_img, horiz_img)


class PixelCNN(nn.Module):
    def __init__(self, c_in, c_hidden):
        super().__init__()
        self.conv_vstack = VerticalStackConvolution(c_in, c_hidden, mask_center=True)
        self.conv_hstack = HorizontalStackConvolution(c_in, c_hidden, mask_center=True)
        self.conv_layers = nn.ModuleList([
            GatedMaskedConv(c_hidden),
            GatedMaskedConv(c_hidden, dilation=2),
            GatedMaskedConv(c_hidden),
        ])
        self.conv_out = nn.Conv2d(c_hidden, c_in * LEVELS, kernel_size=1, padding=0)

    def forward(self, x):
        x = (x.float() / (LEVELS - 1)) * 2 - 1
        v_stack = self.conv_vstack(x)
        h_stack = self.conv_hstack(x)
        for layer in self.conv_layers:
            v_stack, h_stack = layer(v_stack, h_stack)
        out = self.conv_out(F.elu(h_stack))
        out = out.reshape(out.shape[0], LEVELS, out.shape[1] // LEVELS, out.shape[2], out.shape[3])
        return out

    def calc_likelihood(self, x):
        pred = self.forward(x)
        nll = F.cross_entropy(pred, x, reduction='none')
        bpd = nll.mean(dim=[1, 2, 3]) * np.log2(np.exp(1))
        return bpd.mean()

    @torch.no_grad()
    def sample(self, img_shape, img=None):
        if img is None:
            img = torch.zeros(img_shape, dtype=torch.long) - 1
        for h in range(img_shape[2]):
            for w in range(img_shape[3]):
                for c in range(img_shape[1]):
                    if (img[:, c, h, w] != -1).all().item():
                        continue
                    pred = self.forward(img[:, :, :h + 1, :])
                    probs = F.softmax(pred[:, :, c, h, w], dim=-1)
                    img[:, c, h, w] = torch.multinomial(probs, num_samples=1).squeeze(dim=-1)
        return img


model = PixelCNN(c_in=1, c_hidden=8)
print(model.conv_layers[1])
print(model.conv_vstack.mask, model.conv_hstack.mask)
imgs = torch.randint(0, LEVELS, (4, 1, 6, 6))
imgs[:, :, :, :3] = imgs[:, :, :, :3] // 2
optimizer = optim.Adam(model.parameters(), lr=1e-3)
scheduler = optim.lr_scheduler.StepLR(optimizer, 1, gamma=0.99)
for step in range(6):
    loss = model.calc_likelihood(imgs)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(f"step {step}: bpd {loss.item():.6f}")

samples = model.sample(img_shape=(2, 1, 4, 4))
print(samples)
part = imgs[:2].clone()
part[:, :, 3:, :] = -1
print(model.sample(img_shape=part.shape, img=part)[:, 0, 3:])
