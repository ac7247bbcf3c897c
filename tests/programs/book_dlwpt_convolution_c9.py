# Corpus program, written for gradsh (no code copied). Modelled on Stevens, Antiga and
# Viehmann, "Deep Learning with PyTorch", chapter 8 notebook 1_convolution.ipynb:
# https://github.com/deep-learning-with-pytorch/dlwpt-code/blob/master/p1ch8/1_convolution.ipynb
# Like the original: set_printoptions(edgeitems=2) and seed 123; parameter counts of the fully
# connected models; Conv2d(3, 16, 3) shapes; a padded Conv2d(3, 1) with the bias zeroed and
# the weight filled with 1/9, then a vertical-edge kernel assigned through weight[:]; MaxPool2d;
# the Sequential and Net versions (modules, then functional), training_loop printing the mean
# training loss, validate with torch.max(outputs, dim=1) and int((predicted == labels).sum()),
# save/load of the state_dict, NetWidth(n_chans1), the L2-penalised loop, NetDropout
# (Dropout2d), NetBatchNorm, NetDepth, NetRes, and NetResDeep whose Sequential repeats ONE
# ResBlock (kaiming_normal_(nonlinearity='relu'), BatchNorm weight 0.5) n_blocks times.
# Differences: synthetic normalised 32x32 "birds vs airplanes" (96 training, 32 validation
# images with a class-dependent colour shift), 3 epochs per model printing every epoch, no
# datetime in the log lines, n_blocks=4; outputs printed (summarised by edgeitems=2).
import collections
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.set_printoptions(edgeitems=2)
torch.manual_seed(123)
class_names = ['airplane', 'bird']


def make_set(n):
    labels = torch.randint(0, 2, (n,))
    imgs = torch.randn(n, 3, 32, 32) * 0.8
    imgs[:, 2] += 0.6 * (1 - 2 * labels.float()).view(-1, 1, 1)
    return [(img, int(label)) for img, label in zip(imgs, labels)]


cifar2 = make_set(96)
cifar2_val = make_set(32)

connected_model = nn.Sequential(nn.Linear(3072, 1024), nn.Tanh(), nn.Linear(1024, 512), nn.Tanh(),
                                nn.Linear(512, 128), nn.Tanh(), nn.Linear(128, 2))
numel_list = [p.numel() for p in connected_model.parameters() if p.requires_grad == True]
print((sum(numel_list), numel_list))
first_model = nn.Sequential(nn.Linear(3072, 512), nn.Tanh(), nn.Linear(512, 2), nn.LogSoftmax(dim=1))
numel_list = [p.numel() for p in first_model.parameters()]
print((sum(numel_list), numel_list))
linear = nn.Linear(3072, 1024)
print((linear.weight.shape, linear.bias.shape))

conv = nn.Conv2d(3, 16, kernel_size=3)
print(conv)
print((conv.weight.shape, conv.bias.shape))
img, _ = cifar2[0]
output = conv(img.unsqueeze(0))
print((img.unsqueeze(0).shape, output.shape))
print(output)
conv = nn.Conv2d(3, 1, kernel_size=3, padding=1)
output = conv(img.unsqueeze(0))
print((img.unsqueeze(0).shape, output.shape))
with torch.no_grad():
    conv.bias.zero_()
with torch.no_grad():
    conv.weight.fill_(1.0 / 9.0)
output = conv(img.unsqueeze(0))
print(output)
conv = nn.Conv2d(3, 1, kernel_size=3, padding=1)
with torch.no_grad():
    conv.weight[:] = torch.tensor([[-1.0, 0.0, 1.0],
                                   [-1.0, 0.0, 1.0],
                                   [-1.0, 0.0, 1.0]])
    conv.bias.zero_()
output = conv(img.unsqueeze(0))
print(output, conv.weight)
pool = nn.MaxPool2d(2)
output = pool(img.unsqueeze(0))
print((img.unsqueeze(0).shape, output.shape))

model = nn.Sequential(nn.Conv2d(3, 16, kernel_size=3, padding=1), nn.Tanh(), nn.MaxPool2d(2),
                      nn.Conv2d(16, 8, kernel_size=3, padding=1), nn.Tanh(), nn.MaxPool2d(2),
                      nn.Linear(8 * 8 * 8, 32), nn.Tanh(), nn.Linear(32, 2))
numel_list = [p.numel() for p in model.parameters()]
print((sum(numel_list), numel_list))
try:
    model(img.unsqueeze(0))
except RuntimeError as e:
    print("RuntimeError:", e)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(16, 8, kernel_size=3, padding=1)
        self.fc1 = nn.Linear(8 * 8 * 8, 32)
        self.fc2 = nn.Linear(32, 2)

    def forward(self, x):
        out = F.max_pool2d(torch.tanh(self.conv1(x)), 2)
        out = F.max_pool2d(torch.tanh(self.conv2(out)), 2)
        out = out.view(-1, 8 * 8 * 8)
        out = torch.tanh(self.fc1(out))
        out = self.fc2(out)
        return out


model = Net()
print(model(img.unsqueeze(0)))
device = (torch.device('cuda') if torch.cuda.is_available() else torch.device('cpu'))
print(f"Training on device {device}.")


def training_loop(n_epochs, optimizer, model, loss_fn, train_loader, l2_lambda=None):
    for epoch in range(1, n_epochs + 1):
        loss_train = 0.0
        for imgs, labels in train_loader:
            imgs = imgs.to(device=device)
            labels = labels.to(device=device)
            outputs = model(imgs)
            loss = loss_fn(outputs, labels)
            if l2_lambda is not None:
                l2_norm = sum(p.pow(2.0).sum() for p in model.parameters())
                loss = loss + l2_lambda * l2_norm
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            loss_train += loss.item()
        print('Epoch {}, Training loss {}'.format(epoch, loss_train / len(train_loader)))


def validate(model, train_loader, val_loader):
    accdict = {}
    for name, loader in [("train", train_loader), ("val", val_loader)]:
        correct = 0
        total = 0
        with torch.no_grad():
            for imgs, labels in loader:
                imgs = imgs.to(device=device)
                labels = labels.to(device=device)
                outputs = model(imgs)
                _, predicted = torch.max(outputs, dim=1)
                total += labels.shape[0]
                correct += int((predicted == labels).sum())
        print("Accuracy {}: {:.2f}".format(name, correct / total))
        accdict[name] = correct / total
    return accdict


train_loader = torch.utils.data.DataLoader(cifar2, batch_size=32, shuffle=True)
model = Net().to(device=device)
optimizer = optim.SGD(model.parameters(), lr=1e-2)
loss_fn = nn.CrossEntropyLoss()
training_loop(n_epochs=3, optimizer=optimizer, model=model, loss_fn=loss_fn, train_loader=train_loader)
train_loader = torch.utils.data.DataLoader(cifar2, batch_size=32, shuffle=False)
val_loader = torch.utils.data.DataLoader(cifar2_val, batch_size=32, shuffle=False)
all_acc_dict = collections.OrderedDict()
all_acc_dict["baseline"] = validate(model, train_loader, val_loader)
with tempfile.TemporaryDirectory() as data_path:
    torch.save(model.state_dict(), os.path.join(data_path, 'birds_vs_airplanes.pt'))
    loaded_model = Net().to(device=device)
    print(loaded_model.load_state_dict(torch.load(os.path.join(data_path, 'birds_vs_airplanes.pt'),
                                                  map_location=device)))
print(torch.equal(loaded_model.fc2.bias, model.fc2.bias))


class NetWidth(nn.Module):
    def __init__(self, n_chans1=32):
        super().__init__()
        self.n_chans1 = n_chans1
        self.conv1 = nn.Conv2d(3, n_chans1, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(n_chans1, n_chans1 // 2, kernel_size=3, padding=1)
        self.fc1 = nn.Linear(8 * 8 * n_chans1 // 2, 32)
        self.fc2 = nn.Linear(32, 2)

    def forward(self, x):
        out = F.max_pool2d(torch.tanh(self.conv1(x)), 2)
        out = F.max_pool2d(torch.tanh(self.conv2(out)), 2)
        out = out.view(-1, 8 * 8 * self.n_chans1 // 2)
        out = torch.tanh(self.fc1(out))
        out = self.fc2(out)
        return out


class NetDropout(NetWidth):
    def __init__(self, n_chans1=32):
        super().__init__(n_chans1)
        self.conv1_dropout = nn.Dropout2d(p=0.4)
        self.conv2_dropout = nn.Dropout2d(p=0.4)

    def forward(self, x):
        out = F.max_pool2d(torch.tanh(self.conv1(x)), 2)
        out = self.conv1_dropout(out)
        out = F.max_pool2d(torch.tanh(self.conv2(out)), 2)
        out = self.conv2_dropout(out)
        out = out.view(-1, 8 * 8 * self.n_chans1 // 2)
        out = torch.tanh(self.fc1(out))
        out = self.fc2(out)
        return out


class NetBatchNorm(NetWidth):
    def __init__(self, n_chans1=32):
        super().__init__(n_chans1)
        self.conv1_batchnorm = nn.BatchNorm2d(num_features=n_chans1)
        self.conv2_batchnorm = nn.BatchNorm2d(num_features=n_chans1 // 2)

    def forward(self, x):
        out = self.conv1_batchnorm(self.conv1(x))
        out = F.max_pool2d(torch.tanh(out), 2)
        out = self.conv2_batchnorm(self.conv2(out))
        out = F.max_pool2d(torch.tanh(out), 2)
        out = out.view(-1, 8 * 8 * self.n_chans1 // 2)
        out = torch.tanh(self.fc1(out))
        out = self.fc2(out)
        return out


class NetDepth(nn.Module):
    def __init__(self, n_chans1=32, residual=False):
        super().__init__()
        self.n_chans1 = n_chans1
        self.residual = residual
        self.conv1 = nn.Conv2d(3, n_chans1, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(n_chans1, n_chans1 // 2, kernel_size=3, padding=1)
        self.conv3 = nn.Conv2d(n_chans1 // 2, n_chans1 // 2, kernel_size=3, padding=1)
        self.fc1 = nn.Linear(4 * 4 * n_chans1 // 2, 32)
        self.fc2 = nn.Linear(32, 2)

    def forward(self, x):
        out = F.max_pool2d(torch.relu(self.conv1(x)), 2)
        out = F.max_pool2d(torch.relu(self.conv2(out)), 2)
        out1 = out
        out = torch.relu(self.conv3(out))
        if self.residual:
            out = out + out1
        out = F.max_pool2d(out, 2)
        out = out.view(-1, 4 * 4 * self.n_chans1 // 2)
        out = torch.relu(self.fc1(out))
        out = self.fc2(out)
        return out


class ResBlock(nn.Module):
    def __init__(self, n_chans):
        super(ResBlock, self).__init__()
        self.conv = nn.Conv2d(n_chans, n_chans, kernel_size=3, padding=1, bias=False)
        self.batch_norm = nn.BatchNorm2d(num_features=n_chans)
        torch.nn.init.kaiming_normal_(self.conv.weight, nonlinearity='relu')
        torch.nn.init.constant_(self.batch_norm.weight, 0.5)
        torch.nn.init.zeros_(self.batch_norm.bias)

    def forward(self, x):
        out = self.conv(x)
        out = self.batch_norm(out)
        out = torch.relu(out)
        return out + x


class NetResDeep(nn.Module):
    def __init__(self, n_chans1=32, n_blocks=10):
        super().__init__()
        self.n_chans1 = n_chans1
        self.conv1 = nn.Conv2d(3, n_chans1, kernel_size=3, padding=1)
        self.resblocks = nn.Sequential(*(n_blocks * [ResBlock(n_chans=n_chans1)]))
        self.fc1 = nn.Linear(8 * 8 * n_chans1, 32)
        self.fc2 = nn.Linear(32, 2)

    def forward(self, x):
        out = F.max_pool2d(torch.relu(self.conv1(x)), 2)
        out = self.resblocks(out)
        out = F.max_pool2d(out, 2)
        out = out.view(-1, 8 * 8 * self.n_chans1)
        out = torch.relu(self.fc1(out))
        out = self.fc2(out)
        return out


train_loader = torch.utils.data.DataLoader(cifar2, batch_size=32, shuffle=True)
for key, make, lr, l2 in [("width", lambda: NetWidth(n_chans1=32), 1e-2, None),
                          ("l2 reg", Net, 1e-2, 0.001),
                          ("dropout", lambda: NetDropout(n_chans1=32), 1e-2, None),
                          ("batch_norm", lambda: NetBatchNorm(n_chans1=32), 1e-2, None),
                          ("depth", lambda: NetDepth(n_chans1=32), 1e-2, None),
                          ("res", lambda: NetDepth(n_chans1=32, residual=True), 1e-2, None),
                          ("res deep", lambda: NetResDeep(n_chans1=32, n_blocks=4), 3e-3, None)]:
    print(key)
    model = make().to(device=device)
    optimizer = optim.SGD(model.parameters(), lr=lr)
    training_loop(n_epochs=3, optimizer=optimizer, model=model, loss_fn=loss_fn,
                  train_loader=train_loader, l2_lambda=l2)
    model.eval()
    all_acc_dict[key] = validate(model, torch.utils.data.DataLoader(cifar2, batch_size=32),
                                 val_loader)
    print(sum(p.numel() for p in model.parameters()))
print(model)
print(model.resblocks[0] is model.resblocks[3], len(list(model.parameters())),
      len(model.state_dict()))
print(model.resblocks[1].batch_norm.running_mean, model.resblocks[1].batch_norm.num_batches_tracked)
trn_acc = [v['train'] for k, v in all_acc_dict.items()]
val_acc = [v['val'] for k, v in all_acc_dict.items()]
print(trn_acc)
print(val_acc)
