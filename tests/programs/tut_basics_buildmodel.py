# Corpus program, written for gradsh (no code copied). Modelled on the "Learn the Basics"
# tutorial "Build the Neural Network", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/basics/buildmodel_tutorial.py
# Like the original: device chosen from cuda / mps / cpu, an nn.Module with nn.Flatten and an
# nn.Sequential of Linear(784, 512) / ReLU / Linear(512, 512) / ReLU / Linear(512, 10),
# .to(device), print(model), nn.Softmax(dim=1) then argmax(1), the layers one by one on a
# 3x28x28 batch (Flatten, Linear, ReLU before/after in f-strings), a Sequential reusing
# modules, and named_parameters() printed with size and the first two rows.
# Differences: our own code; seeded.
import torch
from torch import nn

torch.manual_seed(0)

if torch.cuda.is_available():
    device = "cuda"
elif torch.backends.mps.is_available():
    device = "mps"
else:
    device = "cpu"
print(f"Using {device} device")


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512), nn.ReLU(),
            nn.Linear(512, 512), nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        return self.linear_relu_stack(self.flatten(x))


model = Classifier().to(device)
print(model)

logits = model(torch.rand(1, 28, 28, device=device))
probs = nn.Softmax(dim=1)(logits)
print(f"Predicted class: {probs.argmax(1)}")

images = torch.rand(3, 28, 28)
print(images.size())
flat = nn.Flatten()(images)
print(flat.size())
layer1 = nn.Linear(in_features=28 * 28, out_features=20)
h = layer1(flat)
print(h.size())
print(f"Before ReLU: {h}\n\n")
h = nn.ReLU()(h)
print(f"After ReLU: {h}")

seq = nn.Sequential(nn.Flatten(), layer1, nn.ReLU(), nn.Linear(20, 10))
probs = nn.Softmax(dim=1)(seq(torch.rand(3, 28, 28)))
print(probs.sum(dim=1))

print(f"Model structure: {model}\n\n")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")
