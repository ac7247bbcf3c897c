# Corpus program, written for gradsh (no code copied). Modelled on the PyTorch tutorial "NLP From
# Scratch: Classifying Names with a Character-Level RNN" (the i2h/i2o version), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/intermediate_source/char_rnn_classification_tutorial.py
# Like the original: unicodeToAscii through unicodedata.normalize('NFD') keeping
# string.ascii_letters + " .,;'", letterToTensor/lineToTensor one-hot tensors of shape
# (len, 1, n_letters), an RNN module concatenating input and hidden into i2h and i2o with
# LogSoftmax(dim=1), initHidden, categoryFromOutput via topk(1), randomTrainingExample with
# random.randint, NLLLoss, a manual update p.data.add_(p.grad.data, alpha=-learning_rate),
# the "iter % (loss) name / guess ✓/✗" progress line, a confusion matrix normalised by rows,
# and predict() printing the top 3 categories with their log-probabilities.
# Differences: our own code; a handful of names per language written here instead of the data
# download; 600 iterations, a seed for random and torch.
import random
import string
import unicodedata

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)
all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)


def unicodeToAscii(s):
    return ''.join(c for c in unicodedata.normalize('NFD', s)
                   if unicodedata.category(c) != 'Mn' and c in all_letters)


print(unicodeToAscii('Ślusàrski'), n_letters)
category_lines = {
    'English': ['Smith', 'Johnson', 'Williams', 'Brown', 'Taylor', 'Walker', 'Wright', 'Hughes'],
    'French': ['Béringer', 'Dubois', 'Lefèvre', 'Moreau', 'Giraud', 'Rousseau', 'Fontaine'],
    'Italian': ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo'],
    'Japanese': ['Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Ito', 'Nakamura'],
    'Polish': ['Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kowalczyk', 'Kamiński'],
}
category_lines = {k: [unicodeToAscii(n) for n in v] for k, v in category_lines.items()}
all_categories = list(category_lines)
n_categories = len(all_categories)
print(category_lines['Polish'][:3])


def letterToIndex(letter):
    return all_letters.find(letter)


def letterToTensor(letter):
    tensor = torch.zeros(1, n_letters)
    tensor[0][letterToIndex(letter)] = 1
    return tensor


def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor


print(letterToTensor('J').nonzero())
print(lineToTensor('Jones').size())


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = self.i2h(combined)
        output = self.i2o(combined)
        output = self.softmax(output)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


n_hidden = 32
rnn = RNN(n_letters, n_hidden, n_categories)
input = lineToTensor('Albert')
hidden = torch.zeros(1, n_hidden)
output, next_hidden = rnn(input[0], hidden)
print(output)


def categoryFromOutput(output):
    top_n, top_i = output.topk(1)
    category_i = top_i[0].item()
    return all_categories[category_i], category_i


print(categoryFromOutput(output))


def randomChoice(l):
    return l[random.randint(0, len(l) - 1)]


def randomTrainingExample():
    category = randomChoice(all_categories)
    line = randomChoice(category_lines[category])
    category_tensor = torch.tensor([all_categories.index(category)], dtype=torch.long)
    line_tensor = lineToTensor(line)
    return category, line, category_tensor, line_tensor


criterion = nn.NLLLoss()
learning_rate = 0.005


def train(category_tensor, line_tensor):
    hidden = rnn.initHidden()
    rnn.zero_grad()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item()


n_iters, print_every = 600, 100
current_loss = 0
for iter in range(1, n_iters + 1):
    category, line, category_tensor, line_tensor = randomTrainingExample()
    output, loss = train(category_tensor, line_tensor)
    current_loss += loss
    if iter % print_every == 0:
        guess, guess_i = categoryFromOutput(output)
        correct = '✓' if guess == category else '✗ (%s)' % category
        print('%d %d%% %.4f %s / %s %s' % (iter, iter / n_iters * 100, loss, line, guess, correct))
        print('  average loss %.4f' % (current_loss / print_every))
        current_loss = 0

confusion = torch.zeros(n_categories, n_categories)


def evaluate(line_tensor):
    hidden = rnn.initHidden()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    return output


for i in range(100):
    category, line, category_tensor, line_tensor = randomTrainingExample()
    output = evaluate(line_tensor)
    guess, guess_i = categoryFromOutput(output)
    category_i = all_categories.index(category)
    confusion[category_i][guess_i] += 1
for i in range(n_categories):
    confusion[i] = confusion[i] / confusion[i].sum()
print(confusion)


def predict(input_line, n_predictions=3):
    print('\n> %s' % input_line)
    with torch.no_grad():
        output = evaluate(lineToTensor(input_line))
        topv, topi = output.topk(n_predictions, 1, True)
        for i in range(n_predictions):
            value = topv[0][i].item()
            category_index = topi[0][i].item()
            print('(%.2f) %s' % (value, all_categories[category_index]))


predict('Dovesky')
predict('Jackson')
predict('Satoshi')
