# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch recipes
# "Saving and loading a general checkpoint" and "Save/Load the entire model"
# (https://pytorch.org/tutorials/recipes/recipes/saving_and_loading_a_general_checkpoint.html,
# https://pytorch.org/tutorials/beginner/saving_loading_models.html) and the torch.save
# notebook of https://github.com/furquanh/Pytorch-Course (a tensor saved to an io.BytesIO
# buffer and loaded back): a checkpoint dict with epoch, model_state_dict,
# optimizer_state_dict and loss, torch.load and load_state_dict for model and optimizer,
# model.train() to resume; the entire model pickled with torch.save(model) and loaded with
# weights_only=False (the default weights_only=True refusing the custom class), and
# map_location='cpu'.
# Differences: our own code; everything goes through io.BytesIO instead of files; seeded.
import io

import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 6)
        self.fc2 = nn.Linear(6, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


net = Net()
optimizer = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
x, y = torch.randn(8, 4), torch.randint(0, 2, (8,))
for epoch in range(3):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(net(x), y)
    loss.backward()
    optimizer.step()
print(round(loss.item(), 4))

buffer = io.BytesIO()
torch.save({"epoch": epoch, "model_state_dict": net.state_dict(),
            "optimizer_state_dict": optimizer.state_dict(), "loss": loss}, buffer)
buffer.seek(0)
model = Net()
opt2 = optim.SGD(model.parameters(), lr=0.5)
checkpoint = torch.load(buffer, weights_only=True)
print(sorted(checkpoint.keys()), checkpoint["epoch"], checkpoint["loss"])
model.load_state_dict(checkpoint["model_state_dict"])
opt2.load_state_dict(checkpoint["optimizer_state_dict"])
print(opt2.param_groups[0]["lr"], opt2.param_groups[0]["momentum"])
print(torch.equal(opt2.state_dict()["state"][0]["momentum_buffer"],
                  optimizer.state_dict()["state"][0]["momentum_buffer"]))
model.train()
print(torch.equal(model(x), net(x)))

buf = io.BytesIO()
torch.save(net, buf)
buf.seek(0)
try:
    torch.load(buf)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][:60])
buf.seek(0)
whole = torch.load(buf, weights_only=False, map_location="cpu")
print(type(whole).__name__, whole)
print(torch.equal(whole(x), net(x)))

t = torch.tensor([0, 1, 2, 3, 4])
b2 = io.BytesIO()
torch.save(t, b2)
b2.seek(0)
print(torch.load(b2))
b3 = io.BytesIO()
torch.save([t, t.float()], b3)
b3.seek(0)
a1, a2 = torch.load(b3)
print(a1, a2, a2.dtype)
strict = Net()
try:
    strict.load_state_dict({"fc1.weight": torch.zeros(6, 4)})
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
print(strict.load_state_dict({"fc1.weight": torch.zeros(6, 4)}, strict=False))
