# Corpus program, written for gradsh (no code copied). Modelled on MorvanZhou's
# PyTorch-Tutorial "305_batch_train.py" (TensorDataset of linspace(1, 10, 10) and
# linspace(10, 1, 10), DataLoader(batch_size=5, shuffle=True, num_workers=2), the batches of
# three epochs printed as NumPy arrays):
# https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents/305_batch_train.py
# and "306_optimizer.py" (four copies of one net trained side by side with SGD, SGD with
# momentum 0.8, RMSprop(alpha=0.9) and Adam(betas=(0.9, 0.99)) on x ** 2 plus noise, batches
# from a DataLoader with two workers, every loss kept in a history):
# https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents/306_optimizer.py
# Like the originals: torch.utils.data imported as Data, num_workers=2, the `if __name__ ==
# '__main__'` guard, print('Epoch: ', epoch, '| Step: ', ...) lines, loss.data.numpy().
# Differences: seeded; 300 points and 2 epochs instead of 1000 and 12; the plot replaced by
# the last losses and a summary of each history.
import torch
import torch.nn.functional as F
import torch.utils.data as Data

torch.manual_seed(1)

BATCH_SIZE = 5
x = torch.linspace(1, 10, 10)
y = torch.linspace(10, 1, 10)
loader = Data.DataLoader(dataset=Data.TensorDataset(x, y), batch_size=BATCH_SIZE,
                         shuffle=True, num_workers=2)


def show_batch():
    for epoch in range(3):
        for step, (batch_x, batch_y) in enumerate(loader):
            print('Epoch: ', epoch, '| Step: ', step, '| batch x: ', batch_x.numpy(),
                  '| batch y: ', batch_y.numpy())


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = torch.nn.Linear(1, 20)
        self.predict = torch.nn.Linear(20, 1)

    def forward(self, x):
        return self.predict(F.relu(self.hidden(x)))


def compare_optimizers():
    LR = 0.01
    xs = torch.unsqueeze(torch.linspace(-1, 1, 300), dim=1)
    ys = xs.pow(2) + 0.1 * torch.normal(torch.zeros(*xs.size()))
    train = Data.DataLoader(dataset=Data.TensorDataset(xs, ys), batch_size=32, shuffle=True,
                            num_workers=2)
    nets = [Net() for _ in range(4)]
    optimizers = [
        torch.optim.SGD(nets[0].parameters(), lr=LR),
        torch.optim.SGD(nets[1].parameters(), lr=LR, momentum=0.8),
        torch.optim.RMSprop(nets[2].parameters(), lr=LR, alpha=0.9),
        torch.optim.Adam(nets[3].parameters(), lr=LR, betas=(0.9, 0.99)),
    ]
    loss_func = torch.nn.MSELoss()
    histories = [[], [], [], []]
    for epoch in range(2):
        print('Epoch: ', epoch)
        for step, (b_x, b_y) in enumerate(train):
            for net, opt, history in zip(nets, optimizers, histories):
                loss = loss_func(net(b_x), b_y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                history.append(loss.data.numpy())
    for label, history in zip(['SGD', 'Momentum', 'RMSprop', 'Adam'], histories):
        print(f'{label:9s} steps={len(history)} last={history[-1]} '
              f'mean={sum(float(h) for h in history) / len(history):.6f}')


if __name__ == '__main__':
    show_batch()
    compare_optimizers()
