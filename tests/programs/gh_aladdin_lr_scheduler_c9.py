# Corpus program, written for gradsh (no code copied). Modelled on Aladdin Persson's
# Machine-Learning-Collection, ML/Pytorch/Basics/pytorch_lr_ratescheduler.py (MIT):
# https://github.com/aladdinpersson/Machine-Learning-Collection/blob/master/ML/Pytorch/Basics/pytorch_lr_ratescheduler.py
# Like the original: nn.Sequential(Linear(784, 50), ReLU, Linear(50, 10)), CrossEntropyLoss,
# Adam(lr=0.1) (deliberately large), ReduceLROnPlateau(factor=0.1, patience=5) stepped once
# per epoch with the mean batch loss, "Cost at epoch {epoch} is {mean_loss}", loss.backward()
# then optimizer.step() then zero_grad(), and check_accuracy on the training loader.
# Differences: synthetic flattened 28x28 data (256 samples, batch 128), 25 epochs instead of
# 100; the learning rate is printed each epoch (the original used verbose=True, which
# PyTorch 2.13 no longer accepts); seeded.
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
num_classes = 10
learning_rate = 0.1
batch_size = 128
num_epochs = 26

model = nn.Sequential(nn.Linear(784, 50), nn.ReLU(), nn.Linear(50, 10)).to(device)
targets_all = torch.randint(0, num_classes, (256,))
data_all = torch.rand(256, 1, 28, 28) + 0.05 * targets_all.view(-1, 1, 1, 1)
train_dataset = TensorDataset(data_all, targets_all)
train_loader = DataLoader(dataset=train_dataset, batch_size=batch_size, shuffle=True)
criterion = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=learning_rate)
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.1, patience=5)
print(scheduler.mode, scheduler.factor, scheduler.patience, scheduler.threshold)

for epoch in range(1, num_epochs):
    losses = []
    for batch_idx, (data, targets) in enumerate(train_loader):
        data = data.reshape(data.shape[0], -1)
        data = data.to(device=device)
        targets = targets.to(device=device)
        scores = model(data)
        loss = criterion(scores, targets)
        losses.append(loss.item())
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    mean_loss = sum(losses) / len(losses)
    scheduler.step(mean_loss)
    print(f'Cost at epoch {epoch} is {mean_loss}')
    print(f'  lr {optimizer.param_groups[0]["lr"]} best {scheduler.best} '
          f'bad epochs {scheduler.num_bad_epochs} last_lr {scheduler.get_last_lr()}')


def check_accuracy(loader, model):
    num_correct = 0
    num_samples = 0
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            x = x.to(device=device).reshape(x.shape[0], -1)
            y = y.to(device=device)
            scores = model(x)
            _, predictions = scores.max(1)
            num_correct += (predictions == y).sum()
            num_samples += predictions.size(0)
        print(f'Got {num_correct} / {num_samples} with accuracy '
              f'{float(num_correct)/float(num_samples)*100:.2f}')
    model.train()


check_accuracy(train_loader, model)
print(scheduler.state_dict())
