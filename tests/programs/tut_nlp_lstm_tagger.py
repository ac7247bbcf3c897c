# Corpus program, written for gradsh (no code copied). Modelled on the NLP tutorial
# "Sequence Models and Long Short-Term Memory Networks" (Robert Guthrie; LSTM part-of-speech
# tagger, the autograd.Variable-era version), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/f77e1c2c11be5d612ed9adbc73a8b82904162c23/beginner_source/nlp/sequence_models_tutorial.py
# Like the original: torch.manual_seed(1); nn.LSTM(3, 3) stepped one element at a time with
# an explicit (h, c) tuple, then run on the whole sequence (torch.cat + view to
# (seq, 1, -1)) and printing out and hidden; a tagger module with nn.Embedding, nn.LSTM and
# nn.Linear, a hidden state kept on the module and reset before each sentence,
# F.log_softmax(dim=1), nn.NLLLoss, optim.SGD(lr=0.1), 300 epochs over two sentences,
# tag scores printed before and after training.
# Differences: our own code and sentences.
import torch
import torch.autograd as autograd
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(1)

cell = nn.LSTM(3, 3)
steps = [autograd.Variable(torch.randn((1, 3))) for _ in range(5)]
state = (autograd.Variable(torch.randn(1, 1, 3)), autograd.Variable(torch.randn((1, 1, 3))))
for s in steps:
    out, state = cell(s.view(1, 1, -1), state)

seq = torch.cat(steps).view(len(steps), 1, -1)
state = (autograd.Variable(torch.randn(1, 1, 3)), autograd.Variable(torch.randn((1, 1, 3))))
out, state = cell(seq, state)
print(out)
print(state)

sentences = [
    ("the fox saw a rabbit".split(), ["DET", "NN", "V", "DET", "NN"]),
    ("everybody likes good coffee".split(), ["NN", "V", "ADJ", "NN"]),
]
word_ix = {}
for words, _ in sentences:
    for w in words:
        if w not in word_ix:
            word_ix[w] = len(word_ix)
print(word_ix)
tag_ix = {"DET": 0, "NN": 1, "V": 2, "ADJ": 3}


def as_indices(items, table):
    return autograd.Variable(torch.LongTensor([table[i] for i in items]))


class Tagger(nn.Module):
    def __init__(self, emb_dim, hidden_dim, n_words, n_tags):
        super(Tagger, self).__init__()
        self.hidden_dim = hidden_dim
        self.embed = nn.Embedding(n_words, emb_dim)
        self.lstm = nn.LSTM(emb_dim, hidden_dim)
        self.to_tags = nn.Linear(hidden_dim, n_tags)
        self.hidden = self.fresh_hidden()

    def fresh_hidden(self):
        return (autograd.Variable(torch.zeros(1, 1, self.hidden_dim)),
                autograd.Variable(torch.zeros(1, 1, self.hidden_dim)))

    def forward(self, sentence):
        emb = self.embed(sentence)
        lstm_out, self.hidden = self.lstm(emb.view(len(sentence), 1, -1), self.hidden)
        space = self.to_tags(lstm_out.view(len(sentence), -1))
        return F.log_softmax(space, dim=1)


model = Tagger(6, 6, len(word_ix), len(tag_ix))
loss_function = nn.NLLLoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)
print(model(as_indices(sentences[0][0], word_ix)))

for epoch in range(300):
    for words, tags in sentences:
        model.zero_grad()
        model.hidden = model.fresh_hidden()
        scores = model(as_indices(words, word_ix))
        loss = loss_function(scores, as_indices(tags, tag_ix))
        loss.backward()
        optimizer.step()

scores = model(as_indices(sentences[0][0], word_ix))
print(scores)
print(scores.argmax(dim=1))
