# Corpus program, written for gradsh (no code copied). Modelled on Machine Learning Mastery's
# "Using Optimizers from PyTorch" (Muhammad Asad Iqbal Khan, 2023):
# https://machinelearningmastery.com/using-optimizers-from-pytorch/
# Like the post: a synthetic linear regression dataset (y = -5x + noise) wrapped in a Dataset
# with __getitem__/__len__ and a DataLoader; a one-layer linear model trained with the same
# loop under several torch.optim optimizers (SGD, Adam, and the others the post lists:
# Adadelta, Adagrad, Adamax, ASGD, NAdam, RAdam, RMSprop, Rprop), the loss of every epoch
# collected and the final losses printed.
# Differences: 5 epochs of batch 10 over 40 samples, a seed before each model; the optimizer
# repr and the keys of its state_dict printed, as the post's reader would inspect them.
import torch
from torch.utils.data import Dataset, DataLoader


class Data(Dataset):
    def __init__(self):
        self.x = torch.arange(-2, 2, 0.1).view(-1, 1)
        self.func = -5 * self.x + 1
        self.y = self.func + 0.4 * torch.randn(self.x.size())
        self.len = self.x.shape[0]

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]

    def __len__(self):
        return self.len


torch.manual_seed(42)
data_set = Data()
print(len(data_set), data_set[3])


class LinearRegression(torch.nn.Module):
    def __init__(self, input_size, output_size):
        super(LinearRegression, self).__init__()
        self.linear = torch.nn.Linear(input_size, output_size)

    def forward(self, x):
        return self.linear(x)


criterion = torch.nn.MSELoss()
makers = {
    "SGD": lambda p: torch.optim.SGD(p, lr=0.01),
    "Adam": lambda p: torch.optim.Adam(p, lr=0.01),
    "Adadelta": lambda p: torch.optim.Adadelta(p, lr=1.0),
    "Adagrad": lambda p: torch.optim.Adagrad(p, lr=0.1),
    "Adamax": lambda p: torch.optim.Adamax(p, lr=0.05),
    "ASGD": lambda p: torch.optim.ASGD(p, lr=0.01),
    "NAdam": lambda p: torch.optim.NAdam(p, lr=0.05),
    "RAdam": lambda p: torch.optim.RAdam(p, lr=0.05),
    "RMSprop": lambda p: torch.optim.RMSprop(p, lr=0.01),
    "Rprop": lambda p: torch.optim.Rprop(p, lr=0.01),
}
for name, make in makers.items():
    torch.manual_seed(0)
    model = LinearRegression(1, 1)
    optimizer = make(model.parameters())
    if name in ("SGD", "ASGD", "NAdam"):
        print(optimizer)
    trainloader = DataLoader(dataset=data_set, batch_size=10, shuffle=True)
    losses = []
    for epoch in range(5):
        for x, y in trainloader:
            y_pred = model(x)
            loss = criterion(y_pred, y)
            losses.append(loss.item())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    state = optimizer.state_dict()
    first = state["state"].get(0, {})
    print(f"{name:9s} final loss {losses[-1]:.5f}  w={model.linear.weight.item():.5f} "
          f"b={model.linear.bias.item():.5f}  state keys {sorted(first)}")
    if name in ("Adamax", "ASGD", "RAdam", "Rprop"):
        for key in sorted(first):
            print("   ", key, first[key])
