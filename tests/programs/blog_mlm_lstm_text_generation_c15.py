# Corpus program, written for gradsh (no code copied). Modelled on Machine Learning Mastery's
# "Text Generation with LSTM in PyTorch" (Adrian Tam, 2023):
# https://machinelearningmastery.com/text-generation-with-lstm-in-pytorch/
# Like the post: a character-level dataset (lower-cased text, sorted set of characters,
# char_to_int mapping), windows of seq_length characters normalised by n_vocab as inputs
# of shape (n_patterns, seq_length, 1) and the next character's index as target; CharModel:
# nn.LSTM(input_size=1, hidden_size, num_layers=1, batch_first=True), the last time step
# taken with x[:, -1, :], Dropout(0.2), Linear(hidden, n_vocab); Adam with
# CrossEntropyLoss(reduction="sum"); a DataLoader with shuffle=True; validation loss
# summed over the loader and the best state_dict kept; generation from a prompt with argmax
# over the logits in eval mode under torch.no_grad(), appending the character and sliding
# the window.
# Differences: a short embedded text instead of "Alice's Adventures in Wonderland"; hidden
# size 32 instead of 256; seq_length 10; 4 epochs; 40 generated characters; a seed.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
import torch.utils.data as data

torch.manual_seed(1)

raw_text = ("Alice was beginning to get very tired of sitting by her sister on the bank, "
            "and of having nothing to do: once or twice she had peeped into the book her "
            "sister was reading, but it had no pictures or conversations in it, and what is "
            "the use of a book, thought Alice, without pictures or conversations?").lower()

chars = sorted(list(set(raw_text)))
char_to_int = dict((c, i) for i, c in enumerate(chars))
n_chars = len(raw_text)
n_vocab = len(chars)
print("Total Characters: ", n_chars)
print("Total Vocab: ", n_vocab)

seq_length = 10
dataX = []
dataY = []
for i in range(0, n_chars - seq_length, 1):
    seq_in = raw_text[i:i + seq_length]
    seq_out = raw_text[i + seq_length]
    dataX.append([char_to_int[char] for char in seq_in])
    dataY.append(char_to_int[seq_out])
n_patterns = len(dataX)
print("Total Patterns: ", n_patterns)

X = torch.tensor(dataX, dtype=torch.float32).reshape(n_patterns, seq_length, 1)
X = X / float(n_vocab)
y = torch.tensor(dataY)
print(X.shape, y.shape)


class CharModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(input_size=1, hidden_size=32, num_layers=1, batch_first=True)
        self.dropout = nn.Dropout(0.2)
        self.linear = nn.Linear(32, n_vocab)

    def forward(self, x):
        x, _ = self.lstm(x)
        x = x[:, -1, :]
        x = self.linear(self.dropout(x))
        return x


n_epochs = 4
batch_size = 32
model = CharModel()
print(model)
optimizer = optim.Adam(model.parameters())
loss_fn = nn.CrossEntropyLoss(reduction="sum")
loader = data.DataLoader(data.TensorDataset(X, y), shuffle=True, batch_size=batch_size)

best_model = None
best_loss = np.inf
for epoch in range(n_epochs):
    model.train()
    for X_batch, y_batch in loader:
        y_pred = model(X_batch)
        loss = loss_fn(y_pred, y_batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    loss = 0
    with torch.no_grad():
        for X_batch, y_batch in loader:
            y_pred = model(X_batch)
            loss += loss_fn(y_pred, y_batch)
        if loss < best_loss:
            best_loss = loss
            best_model = model.state_dict()
        print("Epoch %d: Cross-entropy: %.4f" % (epoch, loss))

model.load_state_dict(best_model)
int_to_char = dict((i, c) for i, c in enumerate(chars))
prompt = raw_text[20:20 + seq_length]
pattern = [char_to_int[c] for c in prompt]
model.eval()
print('Prompt: "%s"' % prompt)
generated = ""
with torch.no_grad():
    for i in range(40):
        x = np.reshape(pattern, (1, len(pattern), 1)) / float(n_vocab)
        x = torch.tensor(x, dtype=torch.float32)
        prediction = model(x)
        index = int(prediction.argmax())
        result = int_to_char[index]
        generated += result
        pattern.append(index)
        pattern = pattern[1:]
print(repr(generated))
print(prediction.softmax(1).max())
