# Corpus program, written for gradsh (no code copied). Modelled on the Stack Overflow question
# "Why do we pack the sequences in PyTorch?" (https://stackoverflow.com/questions/51030782/why-do-we-pack-the-sequences-in-pytorch),
# as worked through in the notebook of https://github.com/saanghyuk/NLP: seq_batch of two
# integer sequences of lengths 5 and 2, pad_sequence(batch_first=True), pack_padded_sequence
# with lengths=[5, 2] printing the PackedSequence (data interleaved by time step,
# batch_sizes [2, 2, 1, 1, 1]), an LSTM run on it, pad_packed_sequence back with the lengths;
# then the usual classifier pattern from the answers: unsorted lengths with
# enforce_sorted=False, the last hidden state h_n[-1] per sequence in the caller's order, a
# bidirectional GRU, training a few steps, and the errors for unsorted lengths and a
# length mismatch.
# Differences: our own code and data; seeded; float outputs printed with 4 decimals.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import (pack_padded_sequence, pack_sequence, pad_packed_sequence,
                                pad_sequence)

torch.manual_seed(0)
seq_batch = [torch.tensor([[1, 1], [2, 2], [3, 3], [4, 4], [5, 5]]),
             torch.tensor([[10, 10], [20, 20]])]
seq_lens = [5, 2]
padded_seq_batch = pad_sequence(seq_batch, batch_first=True)
print(padded_seq_batch)
packed_seq_batch = pack_padded_sequence(padded_seq_batch, lengths=seq_lens, batch_first=True)
print(packed_seq_batch)
print(packed_seq_batch.data.shape, packed_seq_batch.batch_sizes)

lstm = nn.LSTM(input_size=2, hidden_size=3, batch_first=True)
packed = pack_padded_sequence(padded_seq_batch.float(), seq_lens, batch_first=True)
output, (h_n, c_n) = lstm(packed)
print(type(output).__name__, output.data.shape, output.batch_sizes)
padded_out, out_lens = pad_packed_sequence(output, batch_first=True)
print(padded_out.shape, out_lens)
print(torch.allclose(padded_out[1, 1], h_n[0, 1]), torch.allclose(padded_out[0, 4], h_n[0, 0]))
print(padded_out[1, 2:].abs().sum().item())
padded_out, _ = pad_packed_sequence(output, batch_first=True, padding_value=-1.0, total_length=6)
print(padded_out[1, :, 0])


class Classifier(nn.Module):
    def __init__(self, vocab=12, emb=4, hidden=5, classes=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.rnn = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, classes)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.embedding(tokens), lengths, batch_first=True,
                                      enforce_sorted=False)
        _, h_n = self.rnn(packed)
        return self.fc(torch.cat([h_n[-2], h_n[-1]], dim=1))


sentences = [[3, 4, 5], [6, 7], [8, 9, 10, 11], [2]]
labels = torch.tensor([0, 1, 0, 1])
lengths = torch.tensor([len(s) for s in sentences])
tokens = pad_sequence([torch.tensor(s) for s in sentences], batch_first=True)
model = Classifier()
packed = pack_padded_sequence(model.embedding(tokens), lengths, batch_first=True,
                              enforce_sorted=False)
print(packed.sorted_indices, packed.unsorted_indices, packed.batch_sizes)
print(packed.data.grad_fn)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(30):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(tokens, lengths), labels)
    loss.backward()
    optimizer.step()
    if step % 10 == 0:
        print(f"step {step} loss {loss.item():.4f}")
print(model(tokens, lengths).argmax(dim=1))
print(model.embedding.weight.grad[0])

ps = pack_sequence([torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0]), torch.tensor([6.0])])
print(ps)
print(pad_packed_sequence(ps))
try:
    pack_padded_sequence(padded_seq_batch, lengths=[2, 5], batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    pack_padded_sequence(padded_seq_batch, lengths=[5, 2, 1], batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", e)
