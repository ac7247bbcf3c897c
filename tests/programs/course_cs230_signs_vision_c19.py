# Corpus program, written for gradsh (no code copied). Modelled on Stanford CS230's PyTorch
# vision example (the SIGNS classifier): pytorch/vision/model/net.py, utils.py, train.py,
# evaluate.py:
# https://github.com/cs230-stanford/cs230-code-examples/tree/master/pytorch/vision
# Like the sources: Params loaded from a params.json (learning_rate, batch_size, num_epochs,
# dropout_rate, num_channels, save_summary_steps), RunningAverage, the Net of three
# conv -> BatchNorm2d -> max_pool2d -> relu blocks, fc1 -> BatchNorm1d -> relu ->
# F.dropout(training=self.training) -> fc2 -> log_softmax; the custom loss_fn
# -torch.sum(outputs[range(num_examples), labels]) / num_examples (a Python range as an
# index); accuracy on NumPy arrays; train() with Variable-wrapped batches, a summary every
# save_summary_steps batches, metrics_mean over the summaries and the "{}: {:05.3f}" metrics
# string joined by " ; "; evaluate() under eval mode; save_checkpoint / load_checkpoint with
# the epoch, state_dict and optim_dict, and save_dict_to_json of float-cast metrics.
# Differences: 32x32 synthetic "hand signs" (6 classes of seeded colour patterns, 240 train /
# 60 validation) instead of the 64x64 SIGNS images, so fc1 reads 4*4*num_channels*4 features;
# files in a temporary directory; logging.info lines printed; no tqdm; 3 epochs.
import json
import os
import shutil
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.autograd import Variable
from torch.utils.data import DataLoader, TensorDataset


class Params():
    def __init__(self, json_path):
        with open(json_path) as f:
            params = json.load(f)
            self.__dict__.update(params)

    def save(self, json_path):
        with open(json_path, 'w') as f:
            json.dump(self.__dict__, f, indent=4)

    @property
    def dict(self):
        return self.__dict__


class RunningAverage():
    def __init__(self):
        self.steps = 0
        self.total = 0

    def update(self, val):
        self.total += val
        self.steps += 1

    def __call__(self):
        return self.total / float(self.steps)


def save_dict_to_json(d, json_path):
    with open(json_path, 'w') as f:
        d = {k: float(v) for k, v in d.items()}
        json.dump(d, f, indent=4)


def save_checkpoint(state, is_best, checkpoint):
    filepath = os.path.join(checkpoint, 'last.pth.tar')
    if not os.path.exists(checkpoint):
        print("Checkpoint Directory does not exist! Making directory {}".format(os.path.basename(checkpoint)))
        os.mkdir(checkpoint)
    else:
        print("Checkpoint Directory exists! ")
    torch.save(state, filepath)
    if is_best:
        shutil.copyfile(filepath, os.path.join(checkpoint, 'best.pth.tar'))


def load_checkpoint(checkpoint, model, optimizer=None):
    if not os.path.exists(checkpoint):
        raise ("File doesn't exist {}".format(checkpoint))
    checkpoint = torch.load(checkpoint)
    model.load_state_dict(checkpoint['state_dict'])
    if optimizer:
        optimizer.load_state_dict(checkpoint['optim_dict'])
    return checkpoint


class Net(nn.Module):
    def __init__(self, params):
        super(Net, self).__init__()
        self.num_channels = params.num_channels
        self.conv1 = nn.Conv2d(3, self.num_channels, 3, stride=1, padding=1)
        self.bn1 = nn.BatchNorm2d(self.num_channels)
        self.conv2 = nn.Conv2d(self.num_channels, self.num_channels * 2, 3, stride=1, padding=1)
        self.bn2 = nn.BatchNorm2d(self.num_channels * 2)
        self.conv3 = nn.Conv2d(self.num_channels * 2, self.num_channels * 4, 3, stride=1, padding=1)
        self.bn3 = nn.BatchNorm2d(self.num_channels * 4)
        self.fc1 = nn.Linear(4 * 4 * self.num_channels * 4, self.num_channels * 4)
        self.fcbn1 = nn.BatchNorm1d(self.num_channels * 4)
        self.fc2 = nn.Linear(self.num_channels * 4, 6)
        self.dropout_rate = params.dropout_rate

    def forward(self, s):
        s = self.bn1(self.conv1(s))
        s = F.relu(F.max_pool2d(s, 2))
        s = self.bn2(self.conv2(s))
        s = F.relu(F.max_pool2d(s, 2))
        s = self.bn3(self.conv3(s))
        s = F.relu(F.max_pool2d(s, 2))
        s = s.view(-1, 4 * 4 * self.num_channels * 4)
        s = F.dropout(F.relu(self.fcbn1(self.fc1(s))), p=self.dropout_rate, training=self.training)
        s = self.fc2(s)
        return F.log_softmax(s, dim=1)


def loss_fn(outputs, labels):
    num_examples = outputs.size()[0]
    return -torch.sum(outputs[range(num_examples), labels]) / num_examples


def accuracy(outputs, labels):
    outputs = np.argmax(outputs, axis=1)
    return np.sum(outputs == labels) / float(labels.size)


metrics = {'accuracy': accuracy}


def train(model, optimizer, loss_fn, dataloader, metrics, params):
    model.train()
    summ = []
    loss_avg = RunningAverage()
    for i, (train_batch, labels_batch) in enumerate(dataloader):
        train_batch, labels_batch = Variable(train_batch), Variable(labels_batch)
        output_batch = model(train_batch)
        loss = loss_fn(output_batch, labels_batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i % params.save_summary_steps == 0:
            output_batch = output_batch.data.cpu().numpy()
            labels_batch = labels_batch.data.cpu().numpy()
            summary_batch = {metric: metrics[metric](output_batch, labels_batch) for metric in metrics}
            summary_batch['loss'] = loss.item()
            summ.append(summary_batch)
        loss_avg.update(loss.item())
    metrics_mean = {metric: np.mean([x[metric] for x in summ]) for metric in summ[0]}
    metrics_string = " ; ".join("{}: {:05.3f}".format(k, v) for k, v in metrics_mean.items())
    print("- Train metrics: " + metrics_string, '| loss avg {:05.3f}'.format(loss_avg()))


def evaluate(model, loss_fn, dataloader, metrics, params):
    model.eval()
    summ = []
    for data_batch, labels_batch in dataloader:
        output_batch = model(data_batch)
        loss = loss_fn(output_batch, labels_batch)
        output_batch = output_batch.data.cpu().numpy()
        labels_batch = labels_batch.data.cpu().numpy()
        summary_batch = {metric: metrics[metric](output_batch, labels_batch) for metric in metrics}
        summary_batch['loss'] = loss.item()
        summ.append(summary_batch)
    metrics_mean = {metric: np.mean([x[metric] for x in summ]) for metric in summ[0]}
    metrics_string = " ; ".join("{}: {:05.3f}".format(k, v) for k, v in metrics_mean.items())
    print("- Eval metrics : " + metrics_string)
    return metrics_mean


torch.manual_seed(230)
rng = np.random.RandomState(230)
patterns = rng.rand(6, 3, 8, 8).astype(np.float32)


def make_signs(n):
    labels = rng.randint(0, 6, n)
    base = np.kron(patterns[labels], np.ones((1, 1, 4, 4), dtype=np.float32))
    images = base + rng.randn(n, 3, 32, 32).astype(np.float32) * 0.5
    return torch.from_numpy(images), torch.from_numpy(labels).long()


with tempfile.TemporaryDirectory() as model_dir:
    json_path = os.path.join(model_dir, 'params.json')
    with open(json_path, 'w') as f:
        json.dump({"learning_rate": 1e-3, "batch_size": 32, "num_epochs": 3, "dropout_rate": 0.8,
                   "num_channels": 8, "save_summary_steps": 2, "num_workers": 0}, f)
    params = Params(json_path)
    print(params.dict, params.learning_rate)
    params.cuda = torch.cuda.is_available()
    train_x, train_y = make_signs(240)
    val_x, val_y = make_signs(60)
    train_dl = DataLoader(TensorDataset(train_x, train_y), batch_size=params.batch_size, shuffle=True)
    val_dl = DataLoader(TensorDataset(val_x, val_y), batch_size=params.batch_size, shuffle=False)
    model = Net(params)
    print(model)
    optimizer = optim.Adam(model.parameters(), lr=params.learning_rate)
    out = model(train_x[:4])
    print(out.exp().sum(1), loss_fn(out, train_y[:4]), F.nll_loss(out, train_y[:4]))
    print(out[range(4), train_y[:4]])
    checkpoint_dir = os.path.join(model_dir, 'ckpt')
    best_val_acc = 0.0
    for epoch in range(params.num_epochs):
        print("Epoch {}/{}".format(epoch + 1, params.num_epochs))
        train(model, optimizer, loss_fn, train_dl, metrics, params)
        val_metrics = evaluate(model, loss_fn, val_dl, metrics, params)
        val_acc = val_metrics['accuracy']
        is_best = val_acc >= best_val_acc
        save_checkpoint({'epoch': epoch + 1, 'state_dict': model.state_dict(),
                         'optim_dict': optimizer.state_dict()}, is_best=is_best, checkpoint=checkpoint_dir)
        if is_best:
            print("- Found new best accuracy")
            best_val_acc = val_acc
            save_dict_to_json(val_metrics, os.path.join(model_dir, "metrics_val_best_weights.json"))
        save_dict_to_json(val_metrics, os.path.join(model_dir, "metrics_val_last_weights.json"))
    with open(os.path.join(model_dir, "metrics_val_best_weights.json")) as f:
        print(f.read())
    restored = Net(params)
    state = load_checkpoint(os.path.join(checkpoint_dir, 'best.pth.tar'), restored, None)
    print(state['epoch'], sorted(state['optim_dict']['state'].keys())[:3], state['optim_dict']['param_groups'][0]['lr'])
    print(sorted(os.listdir(checkpoint_dir)), restored.bn3.num_batches_tracked)
