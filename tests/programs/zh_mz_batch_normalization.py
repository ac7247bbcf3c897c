# Corpus program, written for gradsh (no code copied). Modelled on MorvanZhou's PyTorch-Tutorial
# 504_batch_normalization.py (MIT):
# https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents/504_batch_normalization.py
# Like the original: y = x^2 - 5 + noise from np.linspace and np.random.normal, TensorDataset
# and DataLoader(shuffle=True), a Net whose N_HIDDEN Linear layers (and BatchNorm1d(10,
# momentum=0.5) layers) are kept in Python lists and registered with setattr(self, 'fc%i' % i,
# ...), init.normal_(weight, mean=0., std=.1) and init.constant_(bias, B_INIT) with a bad bias
# -0.2, tanh activations, a BatchNorm1d on the input, forward returning the layer inputs and
# pre-activations, one net without and one with batch normalization trained side by side with
# Adam, and each epoch a test loss in eval() mode then train() again.
# Differences: our own code; seeded; 400 samples, 4 epochs, num_workers=0; the histograms the
# original plots are replaced by printed means and standard deviations of the last layer input.
import numpy as np
import torch
import torch.utils.data as Data
from torch import nn
from torch.nn import init

torch.manual_seed(1)
np.random.seed(1)
N_SAMPLES, BATCH_SIZE, EPOCH, LR, N_HIDDEN = 400, 64, 4, 0.03, 8
ACTIVATION = torch.tanh
B_INIT = -0.2

x = np.linspace(-7, 10, N_SAMPLES)[:, np.newaxis]
noise = np.random.normal(0, 2, x.shape)
y = np.square(x) - 5 + noise
test_x = np.linspace(-7, 10, 200)[:, np.newaxis]
noise = np.random.normal(0, 2, test_x.shape)
test_y = np.square(test_x) - 5 + noise

train_x, train_y = torch.from_numpy(x).float(), torch.from_numpy(y).float()
test_x = torch.from_numpy(test_x).float()
test_y = torch.from_numpy(test_y).float()
train_dataset = Data.TensorDataset(train_x, train_y)
train_loader = Data.DataLoader(dataset=train_dataset, batch_size=BATCH_SIZE, shuffle=True)


class Net(nn.Module):
    def __init__(self, batch_normalization=False):
        super(Net, self).__init__()
        self.do_bn = batch_normalization
        self.fcs = []
        self.bns = []
        self.bn_input = nn.BatchNorm1d(1, momentum=0.5)
        for i in range(N_HIDDEN):
            input_size = 1 if i == 0 else 10
            fc = nn.Linear(input_size, 10)
            setattr(self, 'fc%i' % i, fc)
            self._set_init(fc)
            self.fcs.append(fc)
            if self.do_bn:
                bn = nn.BatchNorm1d(10, momentum=0.5)
                setattr(self, 'bn%i' % i, bn)
                self.bns.append(bn)
        self.predict = nn.Linear(10, 1)
        self._set_init(self.predict)

    def _set_init(self, layer):
        init.normal_(layer.weight, mean=0., std=.1)
        init.constant_(layer.bias, B_INIT)

    def forward(self, x):
        pre_activation = [x]
        if self.do_bn:
            x = self.bn_input(x)
        layer_input = [x]
        for i in range(N_HIDDEN):
            x = self.fcs[i](x)
            pre_activation.append(x)
            if self.do_bn:
                x = self.bns[i](x)
            x = ACTIVATION(x)
            layer_input.append(x)
        out = self.predict(x)
        return out, layer_input, pre_activation


nets = [Net(batch_normalization=False), Net(batch_normalization=True)]
print(nets[1])
opts = [torch.optim.Adam(net.parameters(), lr=LR) for net in nets]
loss_func = torch.nn.MSELoss()

losses = [[], []]
for epoch in range(EPOCH):
    print('Epoch: ', epoch)
    for net, l in zip(nets, losses):
        net.eval()
        pred, layer_input, pre_act = net(test_x)
        l.append(loss_func(pred, test_y).data.item())
        last = layer_input[-1]
        print('  bn=%s test loss %.4f last input mean %.4f std %.4f'
              % (net.do_bn, l[-1], last.mean().item(), last.std().item()))
        net.train()
    for step, (b_x, b_y) in enumerate(train_loader):
        for net, opt in zip(nets, opts):
            pred, _, _ = net(b_x)
            loss = loss_func(pred, b_y)
            opt.zero_grad()
            loss.backward()
            opt.step()

[net.eval() for net in nets]
preds = [net(test_x)[0] for net in nets]
print([round(loss_func(p, test_y).item(), 3) for p in preds])
print(nets[1].bn_input.running_mean, nets[1].bn_input.running_var)
print(nets[1].bn7.num_batches_tracked)
