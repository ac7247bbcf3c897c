# Corpus program, written for gradsh (no code copied). Modelled on yunjey/pytorch-tutorial,
# "PyTorch Basics" (tutorials/01-basics/pytorch_basics/main.py, MIT):
# https://github.com/yunjey/pytorch-tutorial/blob/master/tutorials/01-basics/pytorch_basics/main.py
# Like the original: basic autograd example 1 (scalar tensors x, w, b with requires_grad, y
# = w * x + b, y.backward(), printing x.grad, w.grad, b.grad); basic autograd example 2 (x =
# torch.randn(10, 3), y = torch.randn(10, 2), nn.Linear(3, 2) printing 'w: ' and 'b: ',
# nn.MSELoss, torch.optim.SGD(lr=0.01), 'loss: ', loss.backward(), 'dL/dw: ', 'dL/db: ',
# one optimizer.step() and 'loss after 1 step optimization: '); loading data from NumPy
# (torch.from_numpy and .numpy()); the input pipeline (a dataset, image and label shapes,
# DataLoader(batch_size=64, shuffle=True), iter / next, a loop over the loader); a custom
# dataset skeleton; saving and loading the entire model and only its parameters.
# Differences: our own code; no CIFAR-10 download (a TensorDataset of random 3x32x32 images)
# and no pretrained ResNet (a small Sequential instead); files in io.BytesIO; seeded.
import io

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)

x = torch.tensor(1.0, requires_grad=True)
w = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
y = w * x + b
y.backward()
print(x.grad)
print(w.grad)
print(b.grad)

x = torch.randn(10, 3)
y = torch.randn(10, 2)
linear = nn.Linear(3, 2)
print("w: ", linear.weight)
print("b: ", linear.bias)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(linear.parameters(), lr=0.01)
pred = linear(x)
loss = criterion(pred, y)
print("loss: ", loss.item())
loss.backward()
print("dL/dw: ", linear.weight.grad)
print("dL/db: ", linear.bias.grad)
optimizer.step()
pred = linear(x)
loss = criterion(pred, y)
print("loss after 1 step optimization: ", loss.item())

x = np.array([[1, 2], [3, 4]])
y = torch.from_numpy(x)
z = y.numpy()
print(y, z, z.dtype)

train_dataset = torch.utils.data.TensorDataset(torch.rand(200, 3, 32, 32),
                                               torch.randint(0, 10, (200,)))
image, label = train_dataset[0]
print(image.size())
print(label)
train_loader = torch.utils.data.DataLoader(dataset=train_dataset, batch_size=64, shuffle=True)
data_iter = iter(train_loader)
images, labels = next(data_iter)
print(images.shape, labels.shape)
for images, labels in train_loader:
    print(images.shape[0], end=" ")
print()


class CustomDataset(torch.utils.data.Dataset):
    def __init__(self):
        self.items = list(range(10))

    def __getitem__(self, index):
        return torch.tensor([float(self.items[index])]), index % 2

    def __len__(self):
        return len(self.items)


custom_dataset = CustomDataset()
train_loader = torch.utils.data.DataLoader(dataset=custom_dataset, batch_size=4, shuffle=False)
for batch, target in train_loader:
    print(batch.view(-1), target)

model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 100))
f = io.BytesIO()
torch.save(model, f)
f.seek(0)
model = torch.load(f, weights_only=False)
print(model)
f = io.BytesIO()
torch.save(model.state_dict(), f)
f.seek(0)
print(model.load_state_dict(torch.load(f)))
print(model(images).shape)
