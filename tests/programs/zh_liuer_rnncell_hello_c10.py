# Corpus program, written for gradsh (no code copied). Modelled on Liu Er's Bilibili course
# "PyTorch深度学习实践" lecture 12 (循环神经网络 基础篇), widely copied on CSDN/Zhihu: the RNNCell
# shape demo (batch_size 1, seq_len 3, input_size 4, hidden_size 2, printing "=" * 20,
# 'Input size:', 'outputs size:'), the nn.RNN demo with num_layers, and the "hello" -> "ohlol"
# exercise three ways: RNNCell over one-hot inputs printing 'Predicted string:' and the epoch
# loss, nn.RNN over the whole sequence, and an Embedding + RNN + Linear model.
# Differences: 15 epochs each; seeded.
import torch

torch.manual_seed(0)
batch_size, seq_len, input_size, hidden_size = 1, 3, 4, 2
cell = torch.nn.RNNCell(input_size=input_size, hidden_size=hidden_size)
dataset = torch.randn(seq_len, batch_size, input_size)
hidden = torch.zeros(batch_size, hidden_size)
for idx, input in enumerate(dataset):
    print("=" * 20, idx, "=" * 20)
    print("Input size:", input.shape)
    hidden = cell(input, hidden)
    print("outputs size:", hidden.shape)
    print(hidden)

num_layers = 2
rnn = torch.nn.RNN(input_size=input_size, hidden_size=hidden_size, num_layers=num_layers)
inputs = torch.randn(seq_len, batch_size, input_size)
hidden = torch.zeros(num_layers, batch_size, hidden_size)
out, hidden = rnn(inputs, hidden)
print("Output size:", out.shape)
print("Output:", out)
print("Hidden size:", hidden.shape)
print("Hidden:", hidden)
print(rnn)

idx2char = ["e", "h", "l", "o"]
x_data = [1, 0, 2, 2, 3]
y_data = [3, 1, 2, 3, 2]
one_hot_lookup = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
x_one_hot = [one_hot_lookup[x] for x in x_data]
input_size, hidden_size, batch_size = 4, 4, 1
inputs = torch.Tensor(x_one_hot).view(-1, batch_size, input_size)
labels = torch.LongTensor(y_data).view(-1, 1)


class Model(torch.nn.Module):
    def __init__(self, input_size, hidden_size, batch_size):
        super(Model, self).__init__()
        self.batch_size = batch_size
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.rnncell = torch.nn.RNNCell(input_size=self.input_size, hidden_size=self.hidden_size)

    def forward(self, input, hidden):
        hidden = self.rnncell(input, hidden)
        return hidden

    def init_hidden(self):
        return torch.zeros(self.batch_size, self.hidden_size)


net = Model(input_size, hidden_size, batch_size)
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(net.parameters(), lr=0.1)
for epoch in range(15):
    loss = 0
    optimizer.zero_grad()
    hidden = net.init_hidden()
    print("Predicted string: ", end="")
    for input, label in zip(inputs, labels):
        hidden = net(input, hidden)
        loss += criterion(hidden, label)
        _, idx = hidden.max(dim=1)
        print(idx2char[idx.item()], end="")
    loss.backward()
    optimizer.step()
    print(", Epoch [%d/15] loss=%.4f" % (epoch + 1, loss.item()))
print(loss)


class RNNModel(torch.nn.Module):
    def __init__(self, input_size, hidden_size, batch_size, num_layers=1):
        super(RNNModel, self).__init__()
        self.num_layers = num_layers
        self.batch_size = batch_size
        self.hidden_size = hidden_size
        self.rnn = torch.nn.RNN(input_size=input_size, hidden_size=hidden_size,
                                num_layers=num_layers)

    def forward(self, input):
        hidden = torch.zeros(self.num_layers, self.batch_size, self.hidden_size)
        out, _ = self.rnn(input, hidden)
        return out.view(-1, self.hidden_size)


net = RNNModel(input_size, hidden_size, batch_size)
labels = torch.LongTensor(y_data)
optimizer = torch.optim.Adam(net.parameters(), lr=0.05)
for epoch in range(15):
    optimizer.zero_grad()
    outputs = net(inputs)
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
    _, idx = outputs.max(dim=1)
    idx = idx.data.numpy()
    print("Predicted: ", "".join([idx2char[x] for x in idx]), end="")
    print(", Epoch [%d/15] loss = %.3f" % (epoch + 1, loss.item()))


class EmbModel(torch.nn.Module):
    def __init__(self, num_class=4, emb_size=10, hidden=8):
        super(EmbModel, self).__init__()
        self.emb = torch.nn.Embedding(4, emb_size)
        self.rnn = torch.nn.RNN(input_size=emb_size, hidden_size=hidden, num_layers=2,
                                batch_first=True)
        self.fc = torch.nn.Linear(hidden, num_class)

    def forward(self, x):
        hidden = torch.zeros(2, x.size(0), 8)
        x = self.emb(x)
        x, _ = self.rnn(x, hidden)
        x = self.fc(x)
        return x.view(-1, 4)


net = EmbModel()
print(net)
inputs = torch.LongTensor([x_data])
optimizer = torch.optim.Adam(net.parameters(), lr=0.05)
for epoch in range(15):
    optimizer.zero_grad()
    outputs = net(inputs)
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
    _, idx = outputs.max(dim=1)
    print("Predicted: ", "".join([idx2char[x] for x in idx.data.numpy()]),
          ", Epoch [%d/15] loss = %.3f" % (epoch + 1, loss.item()))
