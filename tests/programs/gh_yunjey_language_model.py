# Corpus program, written for gradsh (no code copied). Modelled on yunjey's pytorch-tutorial
# "02-intermediate/language_model" (main.py and data_utils.py, MIT):
# https://github.com/yunjey/pytorch-tutorial/blob/master/tutorials/02-intermediate/language_model/main.py
# Like the original: a Dictionary/Corpus that adds '<eos>' to every line and lays the word
# ids out as a (batch_size, num_batches) LongTensor, RNNLM (Embedding -> LSTM(batch_first) ->
# Linear over out.reshape(out.size(0)*out.size(1), out.size(2))), truncated backpropagation
# through a detach(states) helper, CrossEntropyLoss, Adam, clip_grad_norm_(..., 0.5), the
# loss and perplexity line (np.exp of the loss), then sampling with torch.multinomial from
# output.exp() and input.fill_(word_id).
# Differences: our own code; a tiny built-in text instead of Penn Treebank; small sizes
# (embed 16, hidden 32, 1 layer), 3 epochs, the sample printed instead of written to a file.
import numpy as np
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_

torch.manual_seed(0)
TEXT = """the cat sat on the mat
the dog sat on the log
a cat and a dog met on the mat
the dog saw the cat and the cat ran
a bird sat on the dog
the mat was red and the log was brown
""" * 4


class Dictionary(object):
    def __init__(self):
        self.word2idx = {}
        self.idx2word = {}
        self.idx = 0

    def add_word(self, word):
        if word not in self.word2idx:
            self.word2idx[word] = self.idx
            self.idx2word[self.idx] = word
            self.idx += 1

    def __len__(self):
        return len(self.word2idx)


class Corpus(object):
    def __init__(self):
        self.dictionary = Dictionary()

    def get_data(self, text, batch_size=20):
        tokens = 0
        for line in text.splitlines():
            words = line.split() + ['<eos>']
            tokens += len(words)
            for word in words:
                self.dictionary.add_word(word)
        ids = torch.LongTensor(tokens)
        token = 0
        for line in text.splitlines():
            for word in line.split() + ['<eos>']:
                ids[token] = self.dictionary.word2idx[word]
                token += 1
        num_batches = ids.size(0) // batch_size
        ids = ids[:num_batches * batch_size]
        return ids.view(batch_size, -1)


embed_size, hidden_size, num_layers = 16, 32, 1
num_epochs, num_samples, batch_size, seq_length, learning_rate = 3, 12, 4, 6, 0.01

corpus = Corpus()
ids = corpus.get_data(TEXT, batch_size)
vocab_size = len(corpus.dictionary)
num_batches = ids.size(1) // seq_length
print('ids', tuple(ids.shape), 'vocab', vocab_size, 'batches', num_batches)


class RNNLM(nn.Module):
    def __init__(self, vocab_size, embed_size, hidden_size, num_layers):
        super(RNNLM, self).__init__()
        self.embed = nn.Embedding(vocab_size, embed_size)
        self.lstm = nn.LSTM(embed_size, hidden_size, num_layers, batch_first=True)
        self.linear = nn.Linear(hidden_size, vocab_size)

    def forward(self, x, h):
        x = self.embed(x)
        out, (h, c) = self.lstm(x, h)
        out = out.reshape(out.size(0) * out.size(1), out.size(2))
        out = self.linear(out)
        return out, (h, c)


model = RNNLM(vocab_size, embed_size, hidden_size, num_layers)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)


def detach(states):
    return [state.detach() for state in states]


for epoch in range(num_epochs):
    states = (torch.zeros(num_layers, batch_size, hidden_size),
              torch.zeros(num_layers, batch_size, hidden_size))
    for i in range(0, ids.size(1) - seq_length, seq_length):
        inputs = ids[:, i:i + seq_length]
        targets = ids[:, (i + 1):(i + 1) + seq_length]
        states = detach(states)
        outputs, states = model(inputs, states)
        loss = criterion(outputs, targets.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        total_norm = clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        step = (i + 1) // seq_length
        if step % 2 == 0:
            print('Epoch [{}/{}], Step[{}/{}], Loss: {:.4f}, Perplexity: {:5.2f}, norm {:.4f}'
                  .format(epoch + 1, num_epochs, step, num_batches, loss.item(),
                          np.exp(loss.item()), total_norm.item()))

with torch.no_grad():
    state = (torch.zeros(num_layers, 1, hidden_size), torch.zeros(num_layers, 1, hidden_size))
    prob = torch.ones(vocab_size)
    input = torch.multinomial(prob, num_samples=1).unsqueeze(1)
    words = []
    for i in range(num_samples):
        output, state = model(input, state)
        prob = output.exp()
        word_id = torch.multinomial(prob, num_samples=1).item()
        input.fill_(word_id)
        word = corpus.dictionary.idx2word[word_id]
        words.append('\n' if word == '<eos>' else word + ' ')
    print(''.join(words))
    print(input, input.dtype, input.shape)
