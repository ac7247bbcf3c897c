# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch docs page
# "Automatic Mixed Precision package - torch.amp", section "CPU Training Example" (and the
# op lists under "CPU Ops that can autocast to bfloat16"):
# https://pytorch.org/docs/stable/amp.html#cpu-training-example
# Like the example: a model trained on the CPU with the forward pass and the loss inside
# torch.autocast(device_type="cpu", dtype=torch.bfloat16), backward and optimizer.step
# outside the region; SGD on float32 parameters.
# Differences: the example's generic Model is a small CNN (Conv2d -> ReLU -> MaxPool2d ->
# Conv2d -> ReLU -> AdaptiveAvgPool2d -> Flatten -> Linear), so the convolutions and the
# linear layer run in bfloat16 while the loss runs in float32; synthetic data; a seed;
# the dtypes along the way, the losses and a few gradients printed.
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        return self.head(self.features(x))


model = Model()
optimizer = optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()
data = [(torch.randn(8, 3, 12, 12), torch.randint(0, 4, (8,))) for _ in range(4)]

for epoch in range(3):
    for i, (input, target) in enumerate(data):
        optimizer.zero_grad()
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            feats = model.features[0](input)
            output = model(input)
            loss = loss_fn(output, target)
        if epoch == 0 and i == 0:
            print(feats.dtype, output.dtype, loss.dtype, output.grad_fn, loss.grad_fn)
            print(output[:2])
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.6f}")

print(model.features[0].weight.grad.dtype, model.features[0].weight.grad[0, 0])
print(model.head.bias.grad)
with torch.no_grad(), torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    pred = model(data[0][0])
print(pred.dtype, pred.argmax(1), pred.float().softmax(1)[0])
