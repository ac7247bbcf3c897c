# Corpus program, written for gradsh (no code copied). Modelled on the NLP tutorial "Advanced:
# Making Dynamic Decisions and the Bi-LSTM CRF" (Robert Guthrie), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/116e08d6d40b6c219a1a68612a6117c52fcf8410/beginner_source/nlp/advanced_tutorial.py
# Like the original: torch.manual_seed(1); a bidirectional nn.LSTM(5, 2) over nn.Embedding
# features, nn.Linear to tag space, a transitions nn.Parameter with the START/STOP rows set
# through .data; the forward algorithm in log space (log-sum-exp over a max taken with
# torch.max and .view(-1).data.tolist()), the gold-path score built by indexing the
# transitions with tag tensors, Viterbi decoding with back-pointers; the legacy spellings
# torch.Tensor(1, n).fill_(-10000.), torch.LongTensor and autograd.Variable;
# optim.SGD(lr=0.01, weight_decay=1e-4) over two NER sentences; the decoded (score, path)
# printed before and after training.
# Differences: our own code; 100 epochs instead of 300; the per-step scores are collected with
# torch.stack (the stored version's torch.cat of 0-dim tensors raises in PyTorch 2: that
# error is shown once first); the loss printed every 25 epochs.
import torch
import torch.autograd as autograd
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(1)

START, STOP = "<START>", "<STOP>"


def as_int(t):
    return t.view(-1).data.tolist()[0]


def argmax(row):
    _, index = torch.max(row, 1)
    return as_int(index)


def log_sum_exp(row):
    best = row[0, argmax(row)]
    spread = best.view(1, -1).expand(1, row.size()[1])
    return best + torch.log(torch.sum(torch.exp(row - spread)))


def encode(words, index):
    return autograd.Variable(torch.LongTensor([index[w] for w in words]))


class Tagger(nn.Module):
    def __init__(self, n_words, tags, emb_dim, hidden_dim):
        super().__init__()
        self.tags = tags
        self.n_tags = len(tags)
        self.hidden_dim = hidden_dim
        self.embed = nn.Embedding(n_words, emb_dim)
        self.lstm = nn.LSTM(emb_dim, hidden_dim // 2, num_layers=1, bidirectional=True)
        self.to_tags = nn.Linear(hidden_dim, self.n_tags)
        self.transitions = nn.Parameter(torch.randn(self.n_tags, self.n_tags))
        self.transitions.data[tags[START], :] = -10000
        self.transitions.data[:, tags[STOP]] = -10000
        self.state = self.fresh_state()

    def fresh_state(self):
        return (autograd.Variable(torch.randn(2, 1, self.hidden_dim // 2)),
                autograd.Variable(torch.randn(2, 1, self.hidden_dim // 2)))

    def emissions(self, sentence):
        self.state = self.fresh_state()
        x = self.embed(sentence).view(len(sentence), 1, -1)
        out, self.state = self.lstm(x, self.state)
        return self.to_tags(out.view(len(sentence), self.hidden_dim))

    def start_row(self):
        row = torch.Tensor(1, self.n_tags).fill_(-10000.)
        row[0][self.tags[START]] = 0.
        return autograd.Variable(row)

    def partition(self, feats, join=torch.stack):
        alpha = self.start_row()
        for feat in feats:
            scores = []
            for tag in range(self.n_tags):
                emit = feat[tag].view(1, -1).expand(1, self.n_tags)
                trans = self.transitions[tag].view(1, -1)
                scores.append(log_sum_exp(alpha + trans + emit))
            alpha = join(scores).view(1, -1)
        return log_sum_exp(alpha + self.transitions[self.tags[STOP]])

    def gold_score(self, feats, tags):
        score = autograd.Variable(torch.Tensor([0]))
        tags = torch.cat([torch.LongTensor([self.tags[START]]), tags])
        for i, feat in enumerate(feats):
            score = score + self.transitions[tags[i + 1], tags[i]] + feat[tags[i + 1]]
        return score + self.transitions[self.tags[STOP], tags[-1]]

    def viterbi(self, feats):
        pointers = []
        best_so_far = self.start_row()
        for feat in feats:
            step_pointers, step_scores = [], []
            for tag in range(self.n_tags):
                candidates = best_so_far + self.transitions[tag]
                best = argmax(candidates)
                step_pointers.append(best)
                step_scores.append(candidates[0][best])
            best_so_far = (torch.stack(step_scores) + feat).view(1, -1)
            pointers.append(step_pointers)
        final = best_so_far + self.transitions[self.tags[STOP]]
        best = argmax(final)
        score = final[0][best]
        path = [best]
        for step_pointers in reversed(pointers):
            best = step_pointers[best]
            path.append(best)
        assert path.pop() == self.tags[START]
        path.reverse()
        return score, path

    def neg_log_likelihood(self, sentence, tags):
        feats = self.emissions(sentence)
        return self.partition(feats) - self.gold_score(feats, tags)

    def forward(self, sentence):
        return self.viterbi(self.emissions(sentence))


data = [("the wall street journal reported today that apple corporation made money".split(),
         "B I I I O O O B I O O".split()),
        ("georgia tech is a university in georgia".split(), "B I O O O O B".split())]
word_index = {}
for words, _ in data:
    for w in words:
        word_index.setdefault(w, len(word_index))
tag_index = {"B": 0, "I": 1, "O": 2, START: 3, STOP: 4}

model = Tagger(len(word_index), tag_index, 5, 4)
optimizer = optim.SGD(model.parameters(), lr=0.01, weight_decay=1e-4)

with torch.no_grad():
    try:
        model.partition(model.emissions(encode(data[0][0], word_index)), join=torch.cat)
    except RuntimeError as e:
        print("torch.cat of the 0-dim scores:", e)

print(model(encode(data[0][0], word_index)))
for epoch in range(100):
    for words, tags in data:
        model.zero_grad()
        loss = model.neg_log_likelihood(encode(words, word_index),
                                        torch.LongTensor([tag_index[t] for t in tags]))
        loss.backward()
        optimizer.step()
    if epoch % 25 == 0:
        print(epoch, loss)
print(model(encode(data[0][0], word_index)))
print(model(encode(data[1][0], word_index)))
