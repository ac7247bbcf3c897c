# Corpus program, written for gradsh (no code copied). Modelled on the docstring example of
# torch.nn.CTCLoss, BSD-3-Clause:
# https://github.com/pytorch/pytorch/blob/main/torch/nn/modules/loss.py
# Like the docs: T=50 input steps, C=20 classes (0 the blank), N=16 sequences; targets padded
# to S=30 (lengths from S_min=10), then unpadded (concatenated, random lengths), then one
# unbatched sequence; input = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_(),
# input_lengths all T; loss = nn.CTCLoss()(input, target, input_lengths, target_lengths);
# loss.backward().
# Differences: our own code; a seed; the losses, the summed gradients and one gradient row
# printed; reduction='sum' and 'none', zero_infinity on an impossible alignment, and a few
# Rprop steps on the logits added.
import torch
from torch import nn

torch.manual_seed(0)
T, C, N = 50, 20, 16
S, S_min = 30, 10

# Target are to be padded
inp = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_()
target = torch.randint(low=1, high=C, size=(N, S), dtype=torch.long)
input_lengths = torch.full(size=(N,), fill_value=T, dtype=torch.long)
target_lengths = torch.randint(low=S_min, high=S, size=(N,), dtype=torch.long)
ctc_loss = nn.CTCLoss()
loss = ctc_loss(inp, target, input_lengths, target_lengths)
loss.backward()
print("padded:", loss, ctc_loss)
print("grad sum %.6f" % inp.grad.sum().item(), inp.grad[0, 0])

# Target are to be un-padded
inp = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_()
input_lengths = torch.full(size=(N,), fill_value=T, dtype=torch.long)
target_lengths = torch.randint(low=1, high=T, size=(N,), dtype=torch.long)
target = torch.randint(low=1, high=C, size=(int(target_lengths.sum()),), dtype=torch.long)
loss = nn.CTCLoss(reduction="sum")(inp, target, input_lengths, target_lengths)
loss.backward()
print("unpadded:", loss)
print("grad row", inp.grad[-1, 3])

# Target are to be un-padded and unbatched (effectively N=1)
inp = torch.randn(T, C).log_softmax(1).detach().requires_grad_()
input_lengths = torch.tensor(T, dtype=torch.long)
target_lengths = torch.randint(low=1, high=T, size=(), dtype=torch.long)
target = torch.randint(low=1, high=C, size=(int(target_lengths),), dtype=torch.long)
loss = ctc_loss(inp, target, input_lengths, target_lengths)
loss.backward()
print("unbatched:", loss, loss.grad_fn.name())

# an alignment that cannot exist (a target longer than its input), with and without
# zero_infinity
short = torch.randn(5, 2, C).log_softmax(2).detach().requires_grad_()
tgt = torch.randint(1, C, (2, 8))
for zero_infinity in (False, True):
    per_seq = nn.CTCLoss(reduction="none", zero_infinity=zero_infinity)(
        short, tgt, torch.tensor([5, 5]), torch.tensor([8, 3]))
    print("zero_infinity", zero_infinity, per_seq)

# fit a few logits with Rprop
logits = torch.zeros(12, 1, 5, requires_grad=True)
opt = torch.optim.Rprop([logits], lr=0.05)
labels = torch.tensor([[1, 2, 2, 3]])
for step in range(5):
    opt.zero_grad()
    loss = nn.CTCLoss()(logits.log_softmax(2), labels, [12], [4])
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
