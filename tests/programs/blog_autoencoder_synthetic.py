# Corpus program, written for gradsh (no code copied). Modelled on the GeeksforGeeks article
# "Implementing an Autoencoder in PyTorch" (https://www.geeksforgeeks.org/machine-learning/implementing-an-autoencoder-in-pytorch/):
# an AE class with an encoder Sequential(Linear, ReLU, ..., Linear) down to a small code and a
# decoder back up ending in Sigmoid, MSELoss, Adam(lr=1e-1 in the article, smaller here,
# weight_decay=1e-8), a loop over a DataLoader reshaping each image to a vector, the losses
# appended to a list, and the reconstruction compared with the input.
# Differences: our own code; synthetic 16-pixel "images" made of two bars instead of MNIST;
# 15 epochs; seeded; printed numbers instead of plots.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
n = 256
a = torch.rand(n, 1)
b = torch.rand(n, 1)
grid = torch.linspace(0, 1, 16)
images = torch.sigmoid(8 * (a - grid)) * 0.5 + torch.sigmoid(8 * (grid - b)) * 0.5
loader = DataLoader(TensorDataset(images.view(n, 1, 4, 4)), batch_size=32, shuffle=True)


class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 4), nn.ReLU(),
                                     nn.Linear(4, 2))
        self.decoder = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 8), nn.ReLU(),
                                     nn.Linear(8, 16), nn.Sigmoid())

    def forward(self, x):
        return self.decoder(self.encoder(x))


model = AE()
loss_function = torch.nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-8)
epochs = 15
outputs = []
losses = []
for epoch in range(epochs):
    for (image,) in loader:
        image = image.reshape(-1, 4 * 4)
        reconstructed = model(image)
        loss = loss_function(reconstructed, image)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    outputs.append((epoch, image, reconstructed))
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1}: last batch loss {losses[-1]:.4f}")
print(len(losses), round(min(losses), 4) < round(losses[0], 4))
with torch.no_grad():
    code = model.encoder(images[:3])
    recon = model.decoder(code)
print(code.shape, recon.shape)
print((recon - images[:3]).abs().max().item() < 0.5)
print(model.encoder)
print(reconstructed.grad_fn, outputs[-1][2].requires_grad)
