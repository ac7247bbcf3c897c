# Corpus program, written for gradsh (no code copied). Modelled on MorvanZhou's PyTorch-Tutorial
# 402_RNN_classifier.py (MIT):
# https://github.com/MorvanZhou/PyTorch-Tutorial/blob/master/tutorial-contents/402_RNN_classifier.py
# Like the original: images read row by row (TIME_STEP rows of INPUT_SIZE pixels), nn.LSTM(
# batch_first=True) called with None as the initial state, out = Linear(r_out[:, -1, :]),
# Adam(lr=0.01), CrossEntropyLoss, every N steps the test accuracy from
# torch.max(test_output, 1)[1].data.numpy() and '| train loss: %.4f' % loss.data.numpy(), then
# the first ten predictions against the real labels.
# Differences: our own code; synthetic 10x10 "digits" (class k lights up column k) instead of
# MNIST; hidden 32, 300 training images, a seed.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(1)
EPOCH, BATCH_SIZE, TIME_STEP, INPUT_SIZE, LR = 1, 20, 10, 10, 0.01


def digits(n):
    labels = torch.randint(0, 10, (n,))
    images = torch.rand(n, 1, TIME_STEP, INPUT_SIZE) * 0.4
    images[torch.arange(n), 0, :, labels] += 0.6
    return images, labels


train_x, train_y = digits(300)
train_loader = DataLoader(TensorDataset(train_x, train_y), batch_size=BATCH_SIZE, shuffle=True)
test_x, test_y = digits(100)
test_x = test_x.view(-1, TIME_STEP, INPUT_SIZE)
test_y = test_y.numpy()
print(train_x.size(), train_y.size())


class RNN(nn.Module):
    def __init__(self):
        super(RNN, self).__init__()
        self.rnn = nn.LSTM(input_size=INPUT_SIZE, hidden_size=32, num_layers=1, batch_first=True)
        self.out = nn.Linear(32, 10)

    def forward(self, x):
        r_out, (h_n, h_c) = self.rnn(x, None)
        return self.out(r_out[:, -1, :])


rnn = RNN()
print(rnn)
optimizer = torch.optim.Adam(rnn.parameters(), lr=LR)
loss_func = nn.CrossEntropyLoss()
for epoch in range(EPOCH):
    for step, (b_x, b_y) in enumerate(train_loader):
        b_x = b_x.view(-1, TIME_STEP, INPUT_SIZE)
        output = rnn(b_x)
        loss = loss_func(output, b_y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 3 == 0:
            test_output = rnn(test_x)
            pred_y = torch.max(test_output, 1)[1].data.numpy()
            accuracy = float((pred_y == test_y).astype(int).sum()) / float(test_y.size)
            print('Epoch: ', epoch, '| train loss: %.4f' % loss.data.numpy(),
                  '| test accuracy: %.2f' % accuracy)

test_output = rnn(test_x[:10].view(-1, TIME_STEP, INPUT_SIZE))
pred_y = torch.max(test_output, 1)[1].data.numpy()
print(pred_y, 'prediction number')
print(test_y[:10], 'real number')
