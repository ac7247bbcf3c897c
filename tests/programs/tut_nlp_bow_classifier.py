# Corpus program, written for gradsh (no code copied). Modelled on the NLP tutorial "Deep
# Learning with PyTorch" (Robert Guthrie; bag-of-words logistic regression, the
# autograd.Variable-era version), BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/016d0cc077f60c82b8497d4c7f92051ce40cafee/beginner_source/nlp/deep_learning_tutorial.py
# Like the original: torch.manual_seed(1); nn.Linear(5, 3) on autograd.Variable input,
# F.relu, F.softmax / F.log_softmax(dim=0); a word->index dict from a few English and Spanish
# sentences; a module with one nn.Linear and F.log_softmax(dim=1); bag-of-words vectors built
# with `vec[i] += 1` and .view(1, -1); torch.LongTensor targets; printing the parameters and
# the column of one word before and after 100 epochs of nn.NLLLoss + optim.SGD(lr=0.1) with
# model.zero_grad(); next(model.parameters()).
# Differences: our own code and sentences.
import torch
import torch.autograd as autograd
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(1)

affine = nn.Linear(5, 3)
print(affine(autograd.Variable(torch.randn(2, 5))))
sample = autograd.Variable(torch.randn(2, 2))
print(sample)
print(F.relu(sample))
scores = autograd.Variable(torch.randn(5))
print(scores)
print(F.softmax(scores, dim=0))
print(F.softmax(scores, dim=0).sum())
print(F.log_softmax(scores, dim=0))

train = [("el gato come pescado en la casa".split(), "SPANISH"),
         ("the cat eats fish".split(), "ENGLISH"),
         ("no quiero ir a la playa hoy".split(), "SPANISH"),
         ("I do not want to go to the beach today".split(), "ENGLISH")]
test = [("la casa es grande".split(), "SPANISH"),
        ("the fish is big".split(), "ENGLISH")]

vocab = {}
for words, _ in train + test:
    for w in words:
        vocab.setdefault(w, len(vocab))
print(vocab)
labels = {"SPANISH": 0, "ENGLISH": 1}


class BagOfWords(nn.Module):
    def __init__(self, n_labels, n_words):
        super(BagOfWords, self).__init__()
        self.linear = nn.Linear(n_words, n_labels)

    def forward(self, bow):
        return F.log_softmax(self.linear(bow), dim=1)


def bow_vector(words):
    vec = torch.zeros(len(vocab))
    for w in words:
        vec[vocab[w]] += 1
    return vec.view(1, -1)


def target_of(label):
    return torch.LongTensor([labels[label]])


model = BagOfWords(2, len(vocab))
for param in model.parameters():
    print(param)
print(model(autograd.Variable(bow_vector(train[0][0]))))

for words, _ in test:
    print(model(autograd.Variable(bow_vector(words))))
print(next(model.parameters())[:, vocab["casa"]])

loss_function = nn.NLLLoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)
for epoch in range(100):
    for words, label in train:
        model.zero_grad()
        log_probs = model(autograd.Variable(bow_vector(words)))
        loss = loss_function(log_probs, autograd.Variable(target_of(label)))
        loss.backward()
        optimizer.step()

for words, _ in test:
    print(model(autograd.Variable(bow_vector(words))))
print(next(model.parameters())[:, vocab["casa"]])
