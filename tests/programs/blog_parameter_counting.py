# Corpus program, written for gradsh (no code copied). Modelled on the parameter-counting
# posts: "PyTorch Parameter Counting: Fast Keras-Style Total & Trainable Weights"
# (https://openillumi.com/?p=120851: sum(p.numel() for p in model.parameters()) and the
# requires_grad-filtered trainable count), "Comprehensive Guide to Counting Parameters in
# PyTorch Models" (http://www.kouhan.cn/en/article/00041038: SimpleModel(784 -> 256 -> 10), a
# layer-wise table from named_parameters), and the DataCamp exercise in
# https://github.com/Abdullah-Nasir-Chowdhury/DeepLearning-with-PyTorch (Sequential of
# Linear(16, 4), Linear(4, 2), Linear(2, 1) = 81 parameters, counted in a loop and by hand).
# Differences: our own code; a frozen layer, a shared (tied) layer, buffers and a
# Keras-like summary added; seeded.
import torch
import torch.nn as nn

torch.manual_seed(0)


class SimpleModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 256)
        self.fc2 = nn.Linear(256, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


model = SimpleModel()
total_params = sum(p.numel() for p in model.parameters())
print(f"Total parameters: {total_params:,}")
for name, param in model.named_parameters():
    print(f"{name:12s} {str(tuple(param.shape)):12s} {param.numel():>8d}")

model = nn.Sequential(nn.Linear(16, 4), nn.Linear(4, 2), nn.Linear(2, 1))
total = 0
for parameter in model.parameters():
    total += parameter.numel()
print(total, 4 * 17 + 2 * 5 + 1 * 3)

for p in model[0].parameters():
    p.requires_grad = False
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
frozen = sum(p.numel() for p in model.parameters() if not p.requires_grad)
print(f"trainable={trainable} frozen={frozen}")

net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(),
                    nn.LazyLinear(10) if False else nn.Linear(8 * 6 * 6, 10))
print(net)
print(sum(p.numel() for p in net.parameters()))
print(sum(b.numel() for b in net.buffers()), [n for n, _ in net.named_buffers()])
print(len(net.state_dict()), sum(v.numel() for v in net.state_dict().values()))
print("Layer (type)".ljust(24), "Output Shape".ljust(20), "Param #")
x = torch.randn(1, 3, 8, 8)
for name, layer in net.named_children():
    x = layer(x)
    n = sum(p.numel() for p in layer.parameters())
    print(f"{name + ' (' + type(layer).__name__ + ')':24s} {str(list(x.shape)):20s} {n}")


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(6, 3, bias=False)
        self.dec = nn.Linear(3, 6, bias=False)
        self.dec.weight = nn.Parameter(self.enc.weight.t())
        self.shared = self.enc


tied = Tied()
print(len(list(tied.parameters())), sum(p.numel() for p in tied.parameters()))
print([n for n, _ in tied.named_parameters()])
print([n for n, _ in tied.named_parameters(remove_duplicate=False)])
print({p.data_ptr() for p in tied.parameters()} != set())
print(sum(dict((p.data_ptr(), p.numel()) for p in tied.parameters()).values()))
