# Corpus program, written for gradsh (no code copied). Modelled on Simon Prince's
# "Understanding Deep Learning" notebook 11.3 "Batch Normalization" (and 11.2 "Residual
# Networks" for the training loop):
# https://github.com/udlbook/udlbook/blob/main/Notebooks/Chap11/11_3_Batch_Normalization.ipynb
# Like the notebooks: print_variance() takes activations to numpy and prints the mean over
# neurons of np.var over the batch ("%s variance=%f"); He initialisation through
# model.apply (kaiming_uniform_, bias.data.fill_(0.0)); a residual network with five
# residual branches whose forward prints the variance after each connection, run for one
# SGD(momentum=0.9) step from a shuffled DataLoader(TensorDataset) built with
# worker_init_fn=np.random.seed(1); the same network with nn.BatchNorm1d before each
# residual branch (the notebook's exercise, answered); count_params via p.view(-1).shape[0];
# then the 11.2 loop: a 4-layer residual MLP trained with CrossEntropyLoss, SGD(lr=0.05,
# momentum=0.9) and StepLR(step_size=20, gamma=0.5), train/validation loss and error
# printed per epoch.
# Differences: synthetic MNIST-1D-like data (10 random 40-sample templates, shifted and
# noised, 600 train / 200 validation examples) instead of the mnist1d package; seeds;
# 12 epochs instead of 100 with StepLR(step_size=4).
import numpy as np
import torch, torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader
from torch.optim.lr_scheduler import StepLR

torch.manual_seed(0)
np.random.seed(0)

templates = np.random.randn(10, 40)


def make_data(n):
    y = np.random.randint(0, 10, n)
    shifts = np.random.randint(-3, 4, n)
    x = np.stack([np.roll(templates[c], s) for c, s in zip(y, shifts)])
    x = x + 0.4 * np.random.randn(n, 40)
    return x, y


data_x, data_y = make_data(600)
val_x, val_y = make_data(200)
train_data_x = data_x.transpose()
print("Train data: %d examples (columns), each of which has %d dimensions (rows)"
      % ((train_data_x.shape[1], train_data_x.shape[0])))


def print_variance(name, data):
    np_data = data.detach().numpy()
    neuron_variance = np.mean(np.var(np_data, axis=0))
    print("%s variance=%f" % (name, neuron_variance))


def weights_init(layer_in):
    if isinstance(layer_in, nn.Linear):
        nn.init.kaiming_uniform_(layer_in.weight)
        layer_in.bias.data.fill_(0.0)


def run_one_step_of_model(model, x_train, y_train):
    loss_function = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    data_loader = DataLoader(TensorDataset(x_train, y_train), batch_size=200, shuffle=True,
                             worker_init_fn=np.random.seed(1))
    model.apply(weights_init)
    for i, data in enumerate(data_loader):
        x_batch, y_batch = data
        optimizer.zero_grad()
        pred = model(x_batch)
        loss = loss_function(pred, y_batch)
        loss.backward()
        optimizer.step()
        print("loss after one step input:", loss.item())
        break


x_train = torch.tensor(train_data_x.transpose().astype('float32'))
y_train = torch.tensor(data_y.astype('long'))
x_val = torch.tensor(val_x.astype('float32'))
y_val = torch.tensor(val_y.astype('long'))


class ResidualNetwork(torch.nn.Module):
    def __init__(self, input_size, output_size, hidden_size=100):
        super(ResidualNetwork, self).__init__()
        self.linear1 = nn.Linear(input_size, hidden_size)
        self.linear2 = nn.Linear(hidden_size, hidden_size)
        self.linear3 = nn.Linear(hidden_size, hidden_size)
        self.linear4 = nn.Linear(hidden_size, hidden_size)
        self.linear5 = nn.Linear(hidden_size, hidden_size)
        self.linear6 = nn.Linear(hidden_size, hidden_size)
        self.linear7 = nn.Linear(hidden_size, output_size)

    def count_params(self):
        return sum([p.view(-1).shape[0] for p in self.parameters()])

    def forward(self, x):
        print_variance("Input", x)
        f = self.linear1(x)
        print_variance("First preactivation", f)
        res1 = f + self.linear2(f.relu())
        print_variance("After first residual connection", res1)
        res2 = res1 + self.linear3(res1.relu())
        print_variance("After second residual connection", res2)
        res3 = res2 + self.linear4(res2.relu())
        print_variance("After third residual connection", res3)
        res4 = res3 + self.linear5(res3.relu())
        print_variance("After fourth residual connection", res4)
        res5 = res4 + self.linear6(res4.relu())
        print_variance("After fifth residual connection", res5)
        return self.linear7(res5)


class ResidualNetworkWithBatchNorm(ResidualNetwork):
    def __init__(self, input_size, output_size, hidden_size=100):
        super(ResidualNetworkWithBatchNorm, self).__init__(input_size, output_size, hidden_size)
        self.bn = nn.ModuleList([nn.BatchNorm1d(hidden_size) for _ in range(5)])

    def forward(self, x):
        print_variance("Input", x)
        f = self.linear1(x)
        print_variance("First preactivation", f)
        res = f
        names = ["first", "second", "third", "fourth", "fifth"]
        linears = [self.linear2, self.linear3, self.linear4, self.linear5, self.linear6]
        for name, bn, lin in zip(names, self.bn, linears):
            res = res + lin(bn(res).relu())
            print_variance("After %s residual connection" % name, res)
        return self.linear7(res)


n_hidden = 100
n_input = 40
n_output = 10
model = ResidualNetwork(n_input, n_output, n_hidden)
print("params:", model.count_params())
run_one_step_of_model(model, x_train, y_train)
model = ResidualNetworkWithBatchNorm(n_input, n_output, n_hidden)
print("params:", model.count_params())
run_one_step_of_model(model, x_train, y_train)
print(model.bn[0].running_mean[:4], model.bn[0].running_var[:4], model.bn[0].num_batches_tracked)


class ResidualMLP(torch.nn.Module):
    def __init__(self, input_size, output_size, hidden_size=100):
        super(ResidualMLP, self).__init__()
        self.linear1 = nn.Linear(input_size, hidden_size)
        self.linear2 = nn.Linear(hidden_size, hidden_size)
        self.linear3 = nn.Linear(hidden_size, hidden_size)
        self.linear4 = nn.Linear(hidden_size, output_size)
        print("Initialized MLPBase model with {} parameters".format(self.count_params()))

    def count_params(self):
        return sum([p.view(-1).shape[0] for p in self.parameters()])

    def forward(self, x):
        h1 = self.linear1(x)
        h2 = h1 + self.linear2(h1.relu())
        h3 = h2 + self.linear3(h2.relu())
        return self.linear4(h3)


model = ResidualMLP(40, 10)
loss_function = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
scheduler = StepLR(optimizer, step_size=4, gamma=0.5)
data_loader = DataLoader(TensorDataset(x_train, y_train), batch_size=100, shuffle=True,
                         worker_init_fn=np.random.seed(1))
model.apply(weights_init)

n_epoch = 12
losses_train = np.zeros((n_epoch))
errors_train = np.zeros((n_epoch))
losses_val = np.zeros((n_epoch))
errors_val = np.zeros((n_epoch))
for epoch in range(n_epoch):
    for i, data in enumerate(data_loader):
        x_batch, y_batch = data
        optimizer.zero_grad()
        pred = model(x_batch)
        loss = loss_function(pred, y_batch)
        loss.backward()
        optimizer.step()
    pred_train = model(x_train)
    pred_val = model(x_val)
    _, predicted_train_class = torch.max(pred_train.data, 1)
    _, predicted_val_class = torch.max(pred_val.data, 1)
    errors_train[epoch] = 100 - 100 * (predicted_train_class == y_train).float().sum() / len(y_train)
    errors_val[epoch] = 100 - 100 * (predicted_val_class == y_val).float().sum() / len(y_val)
    losses_train[epoch] = loss_function(pred_train, y_train).item()
    losses_val[epoch] = loss_function(pred_val, y_val).item()
    print(f'Epoch {epoch:5d}, train loss {losses_train[epoch]:.6f}, train error {errors_train[epoch]:3.2f},  val loss {losses_val[epoch]:.6f}, percent error {errors_val[epoch]:3.2f}')
    scheduler.step()
print(errors_val)
