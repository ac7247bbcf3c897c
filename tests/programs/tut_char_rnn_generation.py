# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial "NLP From
# Scratch: Generating Names with a Character-Level RNN", BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/char_rnn_generation_tutorial.py
# Like the original: n_letters = len(all_letters) + 1 for the EOS marker, an RNN taking
# (category, input, hidden) concatenated into i2h and i2o, then o2o over (hidden, output),
# Dropout(0.1) and LogSoftmax(dim=1); categoryTensor/inputTensor one-hots and targetTensor
# (letter indexes shifted by one plus EOS) with unsqueeze_(-1); train() summing NLLLoss over
# the letters (loss += l), a manual p.data.add_(p.grad.data, alpha=-learning_rate) update,
# loss.item() / input_line_tensor.size(0); sample() under no_grad taking topk(1) until EOS.
# Differences: our own code; a few names per language written here instead of the data
# download; 800 iterations, a seed; the samples are printed as in the tutorial.
import random
import string

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)
all_letters = string.ascii_letters + " .,;'-"
n_letters = len(all_letters) + 1
category_lines = {
    'Russian': ['Abakumov', 'Ivanov', 'Petrov', 'Sokolov', 'Popov', 'Lebedev', 'Kozlov'],
    'German': ['Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker'],
    'Spanish': ['Garcia', 'Martinez', 'Lopez', 'Sanchez', 'Perez', 'Gomez', 'Diaz'],
}
all_categories = list(category_lines)
n_categories = len(all_categories)


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(n_categories + input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(n_categories + input_size + hidden_size, output_size)
        self.o2o = nn.Linear(hidden_size + output_size, output_size)
        self.dropout = nn.Dropout(0.1)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, category, input, hidden):
        input_combined = torch.cat((category, input, hidden), 1)
        hidden = self.i2h(input_combined)
        output = self.i2o(input_combined)
        output_combined = torch.cat((hidden, output), 1)
        output = self.o2o(output_combined)
        output = self.dropout(output)
        output = self.softmax(output)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


def randomChoice(l):
    return l[random.randint(0, len(l) - 1)]


def randomTrainingPair():
    category = randomChoice(all_categories)
    line = randomChoice(category_lines[category])
    return category, line


def categoryTensor(category):
    li = all_categories.index(category)
    tensor = torch.zeros(1, n_categories)
    tensor[0][li] = 1
    return tensor


def inputTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li in range(len(line)):
        letter = line[li]
        tensor[li][0][all_letters.find(letter)] = 1
    return tensor


def targetTensor(line):
    letter_indexes = [all_letters.find(line[li]) for li in range(1, len(line))]
    letter_indexes.append(n_letters - 1)
    return torch.LongTensor(letter_indexes)


def randomTrainingExample():
    category, line = randomTrainingPair()
    return categoryTensor(category), inputTensor(line), targetTensor(line)


criterion = nn.NLLLoss()
learning_rate = 0.0005
rnn = RNN(n_letters, 64, n_letters)


def train(category_tensor, input_line_tensor, target_line_tensor):
    target_line_tensor.unsqueeze_(-1)
    hidden = rnn.initHidden()
    rnn.zero_grad()
    loss = torch.Tensor([0])
    for i in range(input_line_tensor.size(0)):
        output, hidden = rnn(category_tensor, input_line_tensor[i], hidden)
        l = criterion(output, target_line_tensor[i])
        loss += l
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item() / input_line_tensor.size(0)


c, i, t = randomTrainingExample()
print(c, i.shape, t)
n_iters, print_every = 800, 160
total_loss = 0
for iter in range(1, n_iters + 1):
    output, loss = train(*randomTrainingExample())
    total_loss += loss
    if iter % print_every == 0:
        print('(%d %d%%) %.4f' % (iter, iter / n_iters * 100, total_loss / print_every))
        total_loss = 0
print(output.shape, output.grad_fn)

max_length = 10


def sample(category, start_letter='A'):
    with torch.no_grad():
        category_tensor = categoryTensor(category)
        input = inputTensor(start_letter)
        hidden = rnn.initHidden()
        output_name = start_letter
        for i in range(max_length):
            output, hidden = rnn(category_tensor, input[0], hidden)
            topv, topi = output.topk(1)
            topi = topi[0][0]
            if topi == n_letters - 1:
                break
            else:
                letter = all_letters[topi]
                output_name += letter
            input = inputTensor(letter)
        return output_name


def samples(category, start_letters='ABC'):
    for start_letter in start_letters:
        print(sample(category, start_letter))


rnn.eval()
samples('Russian', 'RUS')
samples('German', 'GER')
samples('Spanish', 'SPA')
