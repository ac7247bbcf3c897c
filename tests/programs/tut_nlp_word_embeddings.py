# Corpus program, written for gradsh (no code copied). Modelled on the NLP tutorial "Word
# Embeddings: Encoding Lexical Semantics" (Robert Guthrie; N-gram language model),
# BSD-3-Clause:
# https://github.com/pytorch/tutorials/blob/main/beginner_source/nlp/word_embeddings_tutorial.py
# Like the original: torch.manual_seed(1); an nn.Embedding(2, 5) lookup with a long tensor;
# trigrams from a text split into words; a vocabulary from set(words) (its order depends on
# PYTHONHASHSEED: the harness sets 0); a module with nn.Embedding, view((1, -1)), two
# nn.Linear layers, F.relu and F.log_softmax(dim=1); nn.NLLLoss, optim.SGD(lr=0.001),
# model.zero_grad(), 10 epochs summing loss.item(), the list of epoch losses printed; then
# CBOW-style (context, target) pairs and a context-to-tensor helper.
# Differences: our own code and text (a public-domain-style verse of our own).
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(1)

lookup = nn.Embedding(2, 5)
print(lookup(torch.tensor([0], dtype=torch.long)))

text = """The river runs beside the mill and turns the wheel all day,
the miller sings beside the stream and counts the sacks of grain,
the wheel turns slow when summer comes and fast in autumn rain,
and every sack he fills with flour he carries up the hill,
and every night the river runs and turns the silent mill.""".split()
trigrams = [([text[i], text[i + 1]], text[i + 2]) for i in range(len(text) - 2)]
print(trigrams[:3])

vocab = set(text)
index = {w: i for i, w in enumerate(vocab)}


class NGram(nn.Module):
    def __init__(self, n_words, dim, context):
        super(NGram, self).__init__()
        self.embeddings = nn.Embedding(n_words, dim)
        self.linear1 = nn.Linear(context * dim, 128)
        self.linear2 = nn.Linear(128, n_words)

    def forward(self, idx):
        e = self.embeddings(idx).view((1, -1))
        h = F.relu(self.linear1(e))
        return F.log_softmax(self.linear2(h), dim=1)


model = NGram(len(vocab), 10, 2)
loss_function = nn.NLLLoss()
optimizer = optim.SGD(model.parameters(), lr=0.001)
losses = []
for epoch in range(10):
    total = 0
    for context, target in trigrams:
        idx = torch.tensor([index[w] for w in context], dtype=torch.long)
        model.zero_grad()
        log_probs = model(idx)
        loss = loss_function(log_probs, torch.tensor([index[target]], dtype=torch.long))
        loss.backward()
        optimizer.step()
        total += loss.item()
    losses.append(total)
print(losses)

pairs = []
for i in range(2, len(text) - 2):
    pairs.append(([text[i - 2], text[i - 1], text[i + 1], text[i + 2]], text[i]))
print(pairs[:5])


def context_tensor(context):
    return torch.tensor([index[w] for w in context], dtype=torch.long)


print(context_tensor(pairs[0][0]).shape)
