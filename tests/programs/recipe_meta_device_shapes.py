# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch recipe
# "Reasoning about Shapes in PyTorch", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/recipes_source/recipes/reasoning_about_shapes.py
# Like the original: tensors and a Conv2d made on the meta device, a convolution of an input far
# too large for memory whose output shape is computed without data, and a LeNet-style Net
# built under `with torch.device("meta")` whose forward hooks print every layer's output
# shape.
# Differences: our own code; no timing; more meta-tensor facts printed (repr, dtype, stride,
# the errors reading values raises, that no random numbers were drawn); seeded.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

images = torch.rand(2, 3, 10, 10, device="meta")
conv = nn.Conv2d(3, 5, 2, device="meta")
print(images)
print(images.shape, images.dtype, images.device, images.is_meta, images.stride())
out = conv(images)
print(out)
print(conv.weight)

huge = torch.rand(2**10, 3, 2**16, 2**16, device="meta")
print(conv(huge))
print(conv(huge).shape.numel())

for read in (lambda: out.sum().item(), lambda: out.tolist(), lambda: out.numpy()):
    try:
        read()
    except (RuntimeError, NotImplementedError, TypeError) as error:
        print(type(error).__name__ + ":", error)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def show_shape(module, inputs, output):
    print(f"{type(module).__name__:>10} -> {tuple(output.shape)} {output.dtype}")


with torch.device("meta"):
    net = Net()
    batch = torch.randn(1024, 3, 32, 32)

for name, layer in net.named_modules():
    layer.register_forward_hook(show_shape)

logits = net(batch)
print(logits)
print(sum(p.numel() for p in net.parameters()), net.fc1.weight.device)
print(torch.randn(3))  # the meta draws above took no random numbers
