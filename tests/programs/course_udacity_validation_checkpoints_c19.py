# Corpus program, written for gradsh (no code copied). Modelled on Udacity's
# deep-learning-v2-pytorch "intro-to-pytorch" Part 5 (Inference and Validation, solution) and
# Part 6 (Saving and Loading Models) with its fc_model.py (MIT licence):
# https://github.com/udacity/deep-learning-v2-pytorch/blob/master/intro-to-pytorch/Part%205%20-%20Inference%20and%20Validation%20(Solution).ipynb
# https://github.com/udacity/deep-learning-v2-pytorch/blob/master/intro-to-pytorch/Part%206%20-%20Saving%20and%20Loading%20Models.ipynb
# https://github.com/udacity/deep-learning-v2-pytorch/blob/master/intro-to-pytorch/fc_model.py
# Like the sources: a Classifier with log_softmax output, ps.topk(1, dim=1), top_class ==
# labels.view(*top_class.shape), torch.mean(equals.type(torch.FloatTensor)), NLLLoss with
# reduction='sum' and the `for ... else:` epoch loop printing "Epoch: {}/{}.. " lines, the
# dropout version with model.eval()/model.train(); fc_model.Network (a ModuleList extended with
# zip of layer sizes), its validation() (images.resize_, labels.data == ps.max(1)[1],
# equality.type_as(torch.FloatTensor())) and train() printing every 40 steps; printing the
# model and state_dict().keys(); torch.save / torch.load of the state_dict; the size-mismatch
# error of loading it into a [400, 200, 100] network (caught and printed here); the
# checkpoint dict with the hidden layer sizes and load_checkpoint.
# Differences: 28x28 synthetic "Fashion-MNIST" images (10 classes of seeded stripe patterns,
# 640 train / 320 test) instead of the download; 3 and 2 epochs; checkpoints written to a
# temporary directory; seeded.
import os
import tempfile

import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


def make_images(n):
    labels = torch.randint(0, 10, (n,))
    images = torch.randn(n, 1, 28, 28) * 2.5
    rows = torch.arange(28).view(1, 28, 1)
    for k in range(10):
        pattern = ((rows + 3 * k) % (k + 2) == 0).float() * (0.5 + 0.1 * k)
        images[labels == k] += pattern
    return (images - 0.5) / 0.5, labels


train_images, train_labels = make_images(640)
test_images, test_labels = make_images(320)
trainloader = DataLoader(TensorDataset(train_images, train_labels), batch_size=64, shuffle=True)
testloader = DataLoader(TensorDataset(test_images, test_labels), batch_size=64, shuffle=True)


class Classifier(nn.Module):
    def __init__(self, dropout=False):
        super().__init__()
        self.fc1 = nn.Linear(784, 256)
        self.fc2 = nn.Linear(256, 128)
        self.fc3 = nn.Linear(128, 64)
        self.fc4 = nn.Linear(64, 10)
        self.dropout = nn.Dropout(p=0.2) if dropout else nn.Identity()

    def forward(self, x):
        x = x.view(x.shape[0], -1)
        x = self.dropout(F.relu(self.fc1(x)))
        x = self.dropout(F.relu(self.fc2(x)))
        x = self.dropout(F.relu(self.fc3(x)))
        x = F.log_softmax(self.fc4(x), dim=1)
        return x


model = Classifier()
images, labels = next(iter(testloader))
ps = torch.exp(model(images))
print(ps.shape)
top_p, top_class = ps.topk(1, dim=1)
print(top_class[:10, :])
equals = top_class == labels.view(*top_class.shape)
print(equals.shape, equals.dtype)
accuracy = torch.mean(equals.type(torch.FloatTensor))
print(f'Accuracy: {accuracy.item()*100}%')

for use_dropout in (False, True):
    model = Classifier(dropout=use_dropout)
    criterion = nn.NLLLoss(reduction='sum')
    optimizer = optim.Adam(model.parameters(), lr=0.003)
    epochs = 3
    train_losses, test_losses = [], []
    for e in range(epochs):
        tot_train_loss = 0
        for images, labels in trainloader:
            optimizer.zero_grad()
            log_ps = model(images)
            loss = criterion(log_ps, labels)
            tot_train_loss += loss.item()
            loss.backward()
            optimizer.step()
        else:
            tot_test_loss = 0
            test_correct = 0
            with torch.no_grad():
                model.eval()
                for images, labels in testloader:
                    log_ps = model(images)
                    loss = criterion(log_ps, labels)
                    tot_test_loss += loss.item()
                    ps = torch.exp(log_ps)
                    top_p, top_class = ps.topk(1, dim=1)
                    equals = top_class == labels.view(*top_class.shape)
                    test_correct += equals.sum().item()
            model.train()
            train_loss = tot_train_loss / len(trainloader.dataset)
            test_loss = tot_test_loss / len(testloader.dataset)
            train_losses.append(train_loss)
            test_losses.append(test_loss)
            print("Epoch: {}/{}.. ".format(e + 1, epochs),
                  "Training Loss: {:.3f}.. ".format(train_loss),
                  "Test Loss: {:.3f}.. ".format(test_loss),
                  "Test Accuracy: {:.3f}".format(test_correct / len(testloader.dataset)))

model.eval()
img = test_images[0].view(1, 784)
with torch.no_grad():
    output = model.forward(img)
ps = torch.exp(output)
print(ps, ps.sum())


class Network(nn.Module):
    def __init__(self, input_size, output_size, hidden_layers, drop_p=0.5):
        super().__init__()
        self.hidden_layers = nn.ModuleList([nn.Linear(input_size, hidden_layers[0])])
        layer_sizes = zip(hidden_layers[:-1], hidden_layers[1:])
        self.hidden_layers.extend([nn.Linear(h1, h2) for h1, h2 in layer_sizes])
        self.output = nn.Linear(hidden_layers[-1], output_size)
        self.dropout = nn.Dropout(p=drop_p)

    def forward(self, x):
        for each in self.hidden_layers:
            x = F.relu(each(x))
            x = self.dropout(x)
        x = self.output(x)
        return F.log_softmax(x, dim=1)


def validation(model, testloader, criterion):
    accuracy = 0
    test_loss = 0
    for images, labels in testloader:
        images = images.resize_(images.size()[0], 784)
        output = model.forward(images)
        test_loss += criterion(output, labels).item()
        ps = torch.exp(output)
        equality = (labels.data == ps.max(1)[1])
        accuracy += equality.type_as(torch.FloatTensor()).mean()
    return test_loss, accuracy


def train(model, trainloader, testloader, criterion, optimizer, epochs=5, print_every=40):
    steps = 0
    running_loss = 0
    for e in range(epochs):
        model.train()
        for images, labels in trainloader:
            steps += 1
            images.resize_(images.size()[0], 784)
            optimizer.zero_grad()
            output = model.forward(images)
            loss = criterion(output, labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
            if steps % print_every == 0:
                model.eval()
                with torch.no_grad():
                    test_loss, accuracy = validation(model, testloader, criterion)
                print("Epoch: {}/{}.. ".format(e + 1, epochs),
                      "Training Loss: {:.3f}.. ".format(running_loss / print_every),
                      "Test Loss: {:.3f}.. ".format(test_loss / len(testloader)),
                      "Test Accuracy: {:.3f}".format(accuracy / len(testloader)))
                running_loss = 0
                model.train()


train_loader2 = DataLoader(TensorDataset(train_images.clone(), train_labels), batch_size=16, shuffle=True)
test_loader2 = DataLoader(TensorDataset(test_images.clone(), test_labels), batch_size=64)
model = Network(784, 10, [512, 256, 128])
criterion = nn.NLLLoss()
optimizer = optim.Adam(model.parameters(), lr=0.001)
train(model, train_loader2, test_loader2, criterion, optimizer, epochs=2)
print("Our model: \n\n", model, '\n')
print("The state dict keys: \n\n", model.state_dict().keys())

with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, 'checkpoint.pth')
    torch.save(model.state_dict(), path)
    state_dict = torch.load(path)
    print(state_dict.keys())
    print(model.load_state_dict(state_dict))
    model2 = Network(784, 10, [400, 200, 100])
    try:
        model2.load_state_dict(state_dict)
    except RuntimeError as e:
        print("RuntimeError:", e)
    checkpoint = {'input_size': 784,
                  'output_size': 10,
                  'hidden_layers': [each.out_features for each in model.hidden_layers],
                  'state_dict': model.state_dict()}
    torch.save(checkpoint, path)

    def load_checkpoint(filepath):
        checkpoint = torch.load(filepath)
        model = Network(checkpoint['input_size'], checkpoint['output_size'],
                        checkpoint['hidden_layers'])
        model.load_state_dict(checkpoint['state_dict'])
        return model

    loaded = load_checkpoint(path)
    print(loaded)
    print(checkpoint['hidden_layers'], type(checkpoint['state_dict']).__name__)
    loaded.eval()
    model.eval()
    x = test_images[:3].view(3, 784)
    print(torch.equal(loaded(x), model(x)), loaded(x).argmax(1), test_labels[:3])
