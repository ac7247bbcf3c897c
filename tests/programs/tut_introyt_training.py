# Corpus program, written for gradsh (no code copied). Modelled on the "Introduction to
# PyTorch" video series' "Training with PyTorch" tutorial, BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/introyt/trainingyt.py
# Like the original: training and validation DataLoaders (batch_size=4, shuffle=True for
# training, False for validation), the ten FashionMNIST class names, printing the set
# sizes; GarmentClassifier (Conv2d(1, 6, 5), MaxPool2d(2, 2), Conv2d(6, 16, 5), Linear 16*4*4
# -> 120 -> 84 -> 10); nn.CrossEntropyLoss on a dummy batch (torch.rand(4, 10) against
# labels [1, 5, 3, 7]) printing 'Total loss for this batch: {}'; optim.SGD(lr=0.001,
# momentum=0.9); train_one_epoch reporting '  batch {} loss: {}' every N batches, the
# epoch loop with model.train(True), model.eval() and torch.no_grad() for validation,
# 'LOSS train {} valid {}', keeping the best validation loss and saving the model state.
# Differences: our own code; no download and no TensorBoard: 400 training and 80 validation
# synthetic 28x28 images, a report every 25 batches, two epochs, the model state saved
# to an io.BytesIO; losses printed with 4 decimals; seeded.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


def fake_fashion(n):
    labels = torch.randint(0, 10, (n,))
    images = (torch.rand(n, 1, 28, 28) - 0.5) / 0.5 + labels.view(-1, 1, 1, 1) * 0.05
    return TensorDataset(images, labels)


training_set = fake_fashion(400)
validation_set = fake_fashion(80)
training_loader = DataLoader(training_set, batch_size=4, shuffle=True)
validation_loader = DataLoader(validation_set, batch_size=4, shuffle=False)
classes = ("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
           "Sandal", "Shirt", "Sneaker", "Bag", "Ankle Boot")
print("Training set has {} instances".format(len(training_set)))
print("Validation set has {} instances".format(len(validation_set)))
images, labels = next(iter(training_loader))
print("  ".join(classes[labels[j]] for j in range(4)))


class GarmentClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 4 * 4, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 4 * 4)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


model = GarmentClassifier()
loss_fn = torch.nn.CrossEntropyLoss()
dummy_outputs = torch.rand(4, 10)
dummy_labels = torch.tensor([1, 5, 3, 7])
print(dummy_outputs)
print(dummy_labels)
loss = loss_fn(dummy_outputs, dummy_labels)
print("Total loss for this batch: {}".format(loss.item()))

optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)


def train_one_epoch(epoch_index):
    running_loss = 0.0
    last_loss = 0.0
    for i, data in enumerate(training_loader):
        inputs, labels = data
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = loss_fn(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 25 == 24:
            last_loss = running_loss / 25
            print("  batch {} loss: {:.4f}".format(i + 1, last_loss))
            running_loss = 0.0
    return last_loss


EPOCHS = 2
best_vloss = 1_000_000.0
saved = None
for epoch_number in range(EPOCHS):
    print("EPOCH {}:".format(epoch_number + 1))
    model.train(True)
    avg_loss = train_one_epoch(epoch_number)
    running_vloss = 0.0
    model.eval()
    with torch.no_grad():
        for i, vdata in enumerate(validation_loader):
            vinputs, vlabels = vdata
            voutputs = model(vinputs)
            vloss = loss_fn(voutputs, vlabels)
            running_vloss += vloss
    avg_vloss = running_vloss / (i + 1)
    print("LOSS train {:.4f} valid {:.4f}".format(avg_loss, avg_vloss))
    if avg_vloss < best_vloss:
        best_vloss = avg_vloss
        saved = io.BytesIO()
        torch.save(model.state_dict(), saved)
        print("saved model_{}".format(epoch_number))
print(type(best_vloss).__name__, best_vloss.shape, len(saved.getvalue()) > 0)
