# Corpus program, written for gradsh (no code copied). Modelled on Sentdex (Harrison
# Kinsley)'s "Deep Learning with Python, TensorFlow and PyTorch" PyTorch series, parts 5-7
# (convnet for cats vs dogs, training on GPU, model analysis):
# https://pythonprogramming.net/convolutional-neural-network-deep-learning-python-pytorch/
# https://pythonprogramming.net/analysis-visualization-deep-learning-neural-network-pytorch/
# Like the original: training_data as a NumPy object array of [image, np.eye(2)[label]]
# pairs, torch.Tensor([i[0] for i in training_data]).view(-1, 50, 50) / 255.0, the Net with
# three Conv2d(kernel 5) layers and F.max_pool2d((2, 2)), self._to_linear found by running a
# dummy torch.randn(50, 50).view(-1, 1, 50, 50) through convs(), Adam(lr=0.001), MSELoss on
# the one-hot targets, VAL_PCT split, batched training with net.zero_grad(), fwd_pass with
# `matches = [torch.argmax(i) == torch.argmax(j) for i, j in zip(outputs, y)]` and
# `matches.count(True) / len(matches)`, test() on a random slice under no_grad, and the
# per-batch log lines.
# Differences: 24x24 synthetic "cats vs dogs" images (a bright square top-left or bottom-right
# plus noise), 240 images, 2 epochs of batch size 20, no log file or plotting; seeded.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

IMG_SIZE = 24
np.random.seed(1)
torch.manual_seed(1)
training_data = []
for n in range(240):
    label = n % 2
    img = np.random.randint(0, 120, (IMG_SIZE, IMG_SIZE)).astype(np.uint8)
    if label == 0:
        img[2:10, 2:10] += 120
    else:
        img[14:22, 14:22] += 120
    training_data.append([np.array(img), np.eye(2)[label]])
np.random.shuffle(training_data)
training_data = np.array(training_data, dtype=object)
print(len(training_data), training_data[0][1], training_data[0][0].shape, training_data[0][0].dtype)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 5)
        self.conv2 = nn.Conv2d(8, 16, 5)
        self.conv3 = nn.Conv2d(16, 32, 3)
        x = torch.randn(IMG_SIZE, IMG_SIZE).view(-1, 1, IMG_SIZE, IMG_SIZE)
        self._to_linear = None
        self.convs(x)
        self.fc1 = nn.Linear(self._to_linear, 64)
        self.fc2 = nn.Linear(64, 2)

    def convs(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), (2, 2))
        x = F.relu(self.conv3(x))
        if self._to_linear is None:
            self._to_linear = x[0].shape[0] * x[0].shape[1] * x[0].shape[2]
            print("to_linear", x[0].shape, self._to_linear)
        return x

    def forward(self, x):
        x = self.convs(x)
        x = x.view(-1, self._to_linear)
        x = F.relu(self.fc1(x))
        x = self.fc2(x)
        return F.softmax(x, dim=1)


net = Net()
print(net)
optimizer = optim.Adam(net.parameters(), lr=0.001)
loss_function = nn.MSELoss()
X = torch.Tensor(np.array([i[0] for i in training_data])).view(-1, IMG_SIZE, IMG_SIZE)
X = X / 255.0
y = torch.Tensor(np.array([i[1] for i in training_data]))
VAL_PCT = 0.1
val_size = int(len(X) * VAL_PCT)
print(val_size)
train_X = X[:-val_size]
train_y = y[:-val_size]
test_X = X[-val_size:]
test_y = y[-val_size:]
print(len(train_X), len(test_X))


def fwd_pass(X, y, train=False):
    if train:
        net.zero_grad()
    outputs = net(X)
    matches = [torch.argmax(i) == torch.argmax(j) for i, j in zip(outputs, y)]
    acc = matches.count(True) / len(matches)
    loss = loss_function(outputs, y)
    if train:
        loss.backward()
        optimizer.step()
    return acc, loss


def test(size=32):
    random_start = np.random.randint(len(test_X) - size)
    X, y = test_X[random_start:random_start + size], test_y[random_start:random_start + size]
    with torch.no_grad():
        val_acc, val_loss = fwd_pass(X.view(-1, 1, IMG_SIZE, IMG_SIZE), y)
    return val_acc, val_loss


BATCH_SIZE = 20
EPOCHS = 2
for epoch in range(EPOCHS):
    for i in range(0, len(train_X), BATCH_SIZE):
        batch_X = train_X[i:i + BATCH_SIZE].view(-1, 1, IMG_SIZE, IMG_SIZE)
        batch_y = train_y[i:i + BATCH_SIZE]
        acc, loss = fwd_pass(batch_X, batch_y, train=True)
        if i % 60 == 0:
            val_acc, val_loss = test(size=16)
            print(f"{epoch},{i},{round(float(acc), 2)},{round(float(loss), 4)},"
                  f"{round(float(val_acc), 2)},{round(float(val_loss), 4)}")
    print(f"Epoch: {epoch}. Loss: {loss}")
correct = 0
total = 0
with torch.no_grad():
    for i in range(len(test_X)):
        real_class = torch.argmax(test_y[i])
        net_out = net(test_X[i].view(-1, 1, IMG_SIZE, IMG_SIZE))[0]
        predicted_class = torch.argmax(net_out)
        if predicted_class == real_class:
            correct += 1
        total += 1
print("Accuracy: ", round(correct / total, 3))
print(net_out, predicted_class, real_class)
