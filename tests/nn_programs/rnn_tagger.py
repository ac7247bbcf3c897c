"""Embedding + LSTM + Linear tagger (float64, as PyTorch's CPU LSTM composes its graph there)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
torch.set_default_dtype(torch.float64)


class Tagger(nn.Module):
    def __init__(self, vocab, tags):
        super().__init__()
        self.emb = nn.Embedding(vocab, 4)
        self.lstm = nn.LSTM(4, 5)
        self.gru = nn.GRU(5, 3, batch_first=True)
        self.out = nn.Linear(3, tags)

    def forward(self, sentence):
        e = self.emb(sentence)
        h, (hn, cn) = self.lstm(e.view(len(sentence), 1, -1))
        g, gn = self.gru(h.transpose(0, 1))
        return F.log_softmax(self.out(g.squeeze(0)), dim=1)


model = Tagger(6, 3)
print(model)
sentence = torch.tensor([0, 3, 2, 5])
tags = torch.tensor([0, 1, 2, 1])
loss_fn = nn.NLLLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    model.zero_grad()
    scores = model(sentence)
    loss = loss_fn(scores, tags)
    loss.backward()
    opt.step()
    print(epoch, f"{loss.item():.6f}")
with torch.no_grad():
    print(model(sentence).argmax(1))
print([n for n, _ in model.lstm.named_parameters()])
print(model.emb.weight.grad.shape, model.lstm.weight_hh_l0.grad.abs().sum() > 0)
