# Corpus program, written for gradsh (no code copied). Modelled on Aakash N S's "Deep Learning
# with PyTorch: Zero to GANs", lesson 3 "Working with Images & Logistic Regression in PyTorch"
# (https://jovian.com/aakashns/03-logistic-regression) and lesson 4's GPU-agnostic helpers
# (https://jovian.com/aakashns/04-feedforward-nn).
# Like the lessons: random_split into train/validation, DataLoaders, the MnistModel
# (nn.Linear(784, 10) with xb.reshape(-1, 784)) with training_step / validation_step /
# validation_epoch_end / epoch_end methods, accuracy via torch.max(outputs, dim=1) and
# torch.tensor(torch.sum(preds == labels).item() / len(preds)), F.softmax of the outputs and
# their row sums, evaluate() stacking the batch losses and accuracies, fit() with an optimizer
# class (torch.optim.SGD) and a history of result dicts, predict_image, saving and reloading
# the state_dict; lesson 4's get_default_device / to_device / DeviceDataLoader wrapper.
# Differences: 600 synthetic 1x28x28 "digits" (class-dependent blobs plus noise) instead of
# MNIST; 4 epochs; seeded.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(42)
labels = torch.randint(0, 10, (600,))
centers = torch.rand(10, 1, 28, 28)
images = (centers[labels] > 0.7).float() * 0.8 + 0.3 * torch.rand(600, 1, 28, 28)
dataset = TensorDataset(images, labels)
image, label = dataset[0]
print(image.shape, label, image[0, 10:15, 10:15])
train_ds, val_ds = random_split(dataset, [500, 100])
print(len(train_ds), len(val_ds))
batch_size = 128
train_loader = DataLoader(train_ds, batch_size, shuffle=True)
val_loader = DataLoader(val_ds, batch_size)

input_size = 28 * 28
num_classes = 10


def accuracy(outputs, labels):
    _, preds = torch.max(outputs, dim=1)
    return torch.tensor(torch.sum(preds == labels).item() / len(preds))


class MnistModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(input_size, num_classes)

    def forward(self, xb):
        xb = xb.reshape(-1, 784)
        out = self.linear(xb)
        return out

    def training_step(self, batch):
        images, labels = batch
        out = self(images)
        loss = F.cross_entropy(out, labels)
        return loss

    def validation_step(self, batch):
        images, labels = batch
        out = self(images)
        loss = F.cross_entropy(out, labels)
        acc = accuracy(out, labels)
        return {'val_loss': loss, 'val_acc': acc}

    def validation_epoch_end(self, outputs):
        batch_losses = [x['val_loss'] for x in outputs]
        epoch_loss = torch.stack(batch_losses).mean()
        batch_accs = [x['val_acc'] for x in outputs]
        epoch_acc = torch.stack(batch_accs).mean()
        return {'val_loss': epoch_loss.item(), 'val_acc': epoch_acc.item()}

    def epoch_end(self, epoch, result):
        print("Epoch [{}], val_loss: {:.4f}, val_acc: {:.4f}".format(epoch, result['val_loss'], result['val_acc']))


model = MnistModel()
print(model.linear.weight.shape, model.linear.bias.shape)
print(list(model.parameters())[1])
for images, labels in train_loader:
    print(images.shape)
    outputs = model(images)
    break
print('outputs.shape : ', outputs.shape)
print('Sample outputs :\n', outputs[:2].data)
probs = F.softmax(outputs, dim=1)
print("Sample probabilities:\n", probs[:2].data)
print("Sum: ", torch.sum(probs[0]).item())
max_probs, preds = torch.max(probs, dim=1)
print(preds)
print(max_probs)
print(labels)
print(accuracy(outputs, labels))
loss_fn = F.cross_entropy
loss = loss_fn(outputs, labels)
print(loss)


def evaluate(model, val_loader):
    outputs = [model.validation_step(batch) for batch in val_loader]
    return model.validation_epoch_end(outputs)


def fit(epochs, lr, model, train_loader, val_loader, opt_func=torch.optim.SGD):
    optimizer = opt_func(model.parameters(), lr)
    history = []
    for epoch in range(epochs):
        for batch in train_loader:
            loss = model.training_step(batch)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        result = evaluate(model, val_loader)
        model.epoch_end(epoch, result)
        history.append(result)
    return history


result0 = evaluate(model, val_loader)
print(result0)
history1 = fit(4, 0.1, model, train_loader, val_loader)
history = [result0] + history1
accuracies = [result['val_acc'] for result in history]
print([round(a, 4) for a in accuracies])


def predict_image(img, model):
    xb = img.unsqueeze(0)
    yb = model(xb)
    _, preds = torch.max(yb, dim=1)
    return preds[0].item()


for i in (0, 10, 42):
    img, label = val_ds[i]
    print('Label:', label.item(), ', Predicted:', predict_image(img, model))

buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
print(model.state_dict()['linear.bias'])
model2 = MnistModel()
buffer.seek(0)
model2.load_state_dict(torch.load(buffer))
print(model2.state_dict()['linear.bias'])
print(evaluate(model2, val_loader))


def get_default_device():
    if torch.cuda.is_available():
        return torch.device('cuda')
    else:
        return torch.device('cpu')


def to_device(data, device):
    if isinstance(data, (list, tuple)):
        return [to_device(x, device) for x in data]
    return data.to(device, non_blocking=True)


class DeviceDataLoader():
    def __init__(self, dl, device):
        self.dl = dl
        self.device = device

    def __iter__(self):
        for b in self.dl:
            yield to_device(b, self.device)

    def __len__(self):
        return len(self.dl)


device = get_default_device()
print(device)
val_dl = DeviceDataLoader(val_loader, device)
print(len(val_dl))
for xb, yb in val_dl:
    print('xb.device:', xb.device)
    print('yb:', yb)
    break
print(evaluate(to_device(model2, device), val_dl))
