# Corpus program, written for gradsh (no code copied). Modelled on yunjey's pytorch-tutorial
# "01-basics/logistic_regression" (MIT):
# https://github.com/yunjey/pytorch-tutorial/blob/master/tutorials/01-basics/logistic_regression/main.py
# Like the original: one nn.Linear(input_size, num_classes) as the model, nn.CrossEntropyLoss,
# SGD, a DataLoader over (image, label) pairs with shuffle=True, images reshaped to
# (-1, input_size), the loss printed every N steps in 'Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}',
# then a no_grad test loop with torch.max(outputs.data, 1) and `correct` kept as a tensor, so
# the accuracy line prints a tensor (100 * correct / total).
# Differences: our own code; synthetic 8x8 "images" (torch.rand) labelled by a fixed random
# linear teacher instead of MNIST, 600/200 samples, lr=0.5, 3 epochs, a seed.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
input_size, num_classes, num_epochs, batch_size, learning_rate = 8 * 8, 10, 3, 50, 0.5

teacher = torch.randn(input_size, num_classes)


def make_split(n):
    images = torch.rand(n, 1, 8, 8)
    labels = (images.reshape(n, -1) @ teacher).argmax(dim=1)
    return TensorDataset(images, labels)


train_dataset, test_dataset = make_split(600), make_split(200)
train_loader = DataLoader(dataset=train_dataset, batch_size=batch_size, shuffle=True)
test_loader = DataLoader(dataset=test_dataset, batch_size=batch_size, shuffle=False)

model = nn.Linear(input_size, num_classes)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)

total_step = len(train_loader)
for epoch in range(num_epochs):
    for i, (images, labels) in enumerate(train_loader):
        images = images.reshape(-1, input_size)
        outputs = model(images)
        loss = criterion(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (i + 1) % 4 == 0:
            print('Epoch [{}/{}], Step [{}/{}], Loss: {:.4f}'
                  .format(epoch + 1, num_epochs, i + 1, total_step, loss.item()))

with torch.no_grad():
    correct = 0
    total = 0
    for images, labels in test_loader:
        images = images.reshape(-1, input_size)
        outputs = model(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum()
    print(type(correct).__name__, correct.dtype)
    print('Accuracy of the model on the {} test images: {} %'.format(total, 100 * correct / total))
