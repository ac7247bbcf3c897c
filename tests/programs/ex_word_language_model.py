# Corpus program, written for gradsh (no code copied). Modelled on pytorch/examples
# "word_language_model" (an RNN language model on Wikitext-2), BSD-3-Clause:
# https://github.com/pytorch/examples/blob/main/word_language_model/main.py
# https://github.com/pytorch/examples/blob/main/word_language_model/model.py
# https://github.com/pytorch/examples/blob/main/word_language_model/data.py
# Like the original: a Dictionary (word2idx / idx2word, add_word) and a Corpus tokenizing
# lines with '<eos>' appended; batchify with narrow, view(bsz, -1).t().contiguous();
# RNNModel with nn.Dropout, nn.Embedding, getattr(nn, rnn_type)(ninp, nhid, nlayers,
# dropout=dropout), nn.Linear decoder, init_weights with uniform_(-0.1, 0.1) / zeros_,
# F.log_softmax(decoded, dim=1), init_hidden with weight.new_zeros; nn.NLLLoss;
# repackage_hidden detaching the hidden state; get_batch(source, i) with bptt; a train loop
# with model.zero_grad(), clip_grad_norm_(model.parameters(), clip), the manual update
# p.data.add_(p.grad, alpha=-lr), log lines '| epoch {:3d} | {:5d}/{:5d} batches | lr
# {:02.2f} | loss {:5.2f} | ppl {:8.2f}', evaluate() under no_grad, the end-of-epoch line
# with the validation loss and perplexity, lr /= 4.0 when it does not improve, and the
# final test loss.
# Differences: our own code; a generated toy corpus instead of Wikitext-2 (no files); tiny
# sizes (emsize 16, nhid 16, 2 LSTM layers, bptt 8, batch 4), 2 epochs; the ms/batch and
# elapsed-time fields are left out (they depend on the machine); seeded.
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class Dictionary:
    def __init__(self):
        self.word2idx = {}
        self.idx2word = []

    def add_word(self, word):
        if word not in self.word2idx:
            self.idx2word.append(word)
            self.word2idx[word] = len(self.idx2word) - 1
        return self.word2idx[word]

    def __len__(self):
        return len(self.idx2word)


class Corpus:
    def __init__(self, splits):
        self.dictionary = Dictionary()
        self.train, self.valid, self.test = (self.tokenize(lines) for lines in splits)

    def tokenize(self, lines):
        idss = []
        for line in lines:
            words = line.split() + ["<eos>"]
            idss.append(torch.tensor([self.dictionary.add_word(w) for w in words],
                                     dtype=torch.int64))
        return torch.cat(idss)


rng = random.Random(3)
vocab = "the a cat dog sat ran on under mat log quickly slowly big small red".split()


def sentence():
    return " ".join(rng.choice(vocab) for _ in range(rng.randint(4, 9)))


corpus = Corpus([[sentence() for _ in range(60)], [sentence() for _ in range(12)],
                 [sentence() for _ in range(12)]])
print(len(corpus.dictionary), corpus.train.shape, corpus.valid.shape, corpus.test.shape)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


torch.manual_seed(1111)
batch_size, eval_batch_size = 4, 2
train_data = batchify(corpus.train, batch_size)
val_data = batchify(corpus.valid, eval_batch_size)
test_data = batchify(corpus.test, eval_batch_size)
print(train_data.shape, val_data.shape)


class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super().__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.rnn_type = rnn_type
        self.nhid = nhid
        self.nlayers = nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == "LSTM":
            return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid))
        return weight.new_zeros(self.nlayers, bsz, self.nhid)


ntokens = len(corpus.dictionary)
model = RNNModel("LSTM", ntokens, 16, 16, 2, 0.2)
print(model)
criterion = nn.NLLLoss()
bptt, clip, log_interval = 8, 0.25, 5


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def get_batch(source, i):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].view(-1)
    return data, target


def evaluate(data_source):
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(eval_batch_size)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, bptt):
            data, targets = get_batch(data_source, i)
            output, hidden = model(data, hidden)
            hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


def train():
    model.train()
    total_loss = 0.0
    hidden = model.init_hidden(batch_size)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i)
        model.zero_grad()
        hidden = repackage_hidden(hidden)
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total_loss += loss.item()
        if batch % log_interval == 0 and batch > 0:
            cur_loss = total_loss / log_interval
            print("| epoch {:3d} | {:5d}/{:5d} batches | lr {:02.2f} | loss {:5.2f} | ppl {:8.2f}"
                  .format(epoch, batch, len(train_data) // bptt, lr, cur_loss, math.exp(cur_loss)))
            total_loss = 0


lr = 20
best_val_loss = None
for epoch in range(1, 3):
    train()
    val_loss = evaluate(val_data)
    print("-" * 89)
    print("| end of epoch {:3d} | valid loss {:5.2f} | valid ppl {:8.2f}".format(
        epoch, val_loss, math.exp(val_loss)))
    print("-" * 89)
    if not best_val_loss or val_loss < best_val_loss:
        best_val_loss = val_loss
    else:
        lr /= 4.0

test_loss = evaluate(test_data)
print("=" * 89)
print("| End of training | test loss {:5.2f} | test ppl {:8.2f}".format(test_loss, math.exp(test_loss)))
print("=" * 89)
