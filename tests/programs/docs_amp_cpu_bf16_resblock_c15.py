# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch docs page
# "Automatic Mixed Precision package - torch.amp", section "CPU Training Example", with the
# kind of model its CPU op lists are about (convolutions in bfloat16, batch norm running on
# what they return):
# https://pytorch.org/docs/stable/amp.html#cpu-training-example
# Like the example: forward pass and loss inside torch.autocast(device_type="cpu",
# dtype=torch.bfloat16), backward and optimizer.step outside, float32 parameters.
# Differences: the model is a small residual CNN block (Conv2d -> BatchNorm2d -> ReLU ->
# Conv2d -> BatchNorm2d, plus the identity, ReLU, global average pooling, Linear), so batch
# norm runs on bfloat16 activations; synthetic data; a seed; SGD with momentum; dtypes,
# losses, running statistics and a few gradients printed.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + x)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.block = ResBlock(8)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        x = self.block(F.relu(self.stem(x)))
        return self.fc(x.mean(dim=(2, 3)))


model = Model()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
data = [(torch.randn(6, 3, 10, 10), torch.randint(0, 5, (6,))) for _ in range(3)]
for epoch in range(3):
    model.train()
    for i, (input, target) in enumerate(data):
        optimizer.zero_grad()
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            output = model(input)
            loss = F.cross_entropy(output, target)
        if epoch == 0 and i == 0:
            with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
                h = model.block.bn1(model.block.conv1(F.relu(model.stem(input))))
            print(h.dtype, output.dtype, loss.dtype, h[0, 0, 0, :4])
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.6f}")
print(model.block.bn1.running_mean[:4], model.block.bn1.running_var[:4],
      model.block.bn1.num_batches_tracked)
print(model.block.bn2.weight.grad[:4], model.block.conv1.weight.grad[0, 0, 0])
model.eval()
with torch.no_grad(), torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    print(model(data[0][0]).float().softmax(1)[0])
